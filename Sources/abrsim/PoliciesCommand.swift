import ABRSim

/// `abrsim policies`: every registered policy with its declared parameters: meaning, accepted values and unit,
/// default and its source.
enum PoliciesCommand {
    static let spec = CommandSpec(name: "abrsim policies", summary: "list the ABR policies with their parameters")

    static func main(_ arguments: [String]) throws -> Int32 {
        let parsed = try parse(arguments, spec: spec)
        if parsed.helpRequested {
            writeStandardOutput(spec.usage())
            return 0
        }
        writeStandardOutput(listing(PolicyRegistry.builtIn) + "\n" + SabreBatch.policiesHelp)
        return 0
    }

    static func listing(_ registry: PolicyRegistry) -> String {
        var text = ""
        for descriptor in registry.descriptors {
            text += "\(descriptor.name) — \(descriptor.summary)\n"
            let width = descriptor.parameters.map(\.name.count).max() ?? 0
            for parameter in descriptor.parameters {
                text += "    \(parameter.name.padding(toLength: width))  \(parameter.listingText)\n"
            }
        }
        return text
    }
}
