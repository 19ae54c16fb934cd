/// The live catch-up controllers by name, for scenarios and `abrsim model catchup`.
public enum LiveCatchUpControllers {
    /// The names, in the order they are listed to users.
    public static let names = ["dashjs", "dashjs-lolp", "exoplayer", "shaka", "none"]

    /// The controller `name` with its player's defaults, or `nil` for an unknown name.
    public static func make(_ name: String) -> (any LiveCatchUpController)? {
        switch name {
        case "dashjs": return DashCatchupController()
        case "dashjs-lolp": return DashCatchupController(settings: DashLiveCatchupSettings(mode: .liveCatchupModeLoLP))
        case "exoplayer": return DefaultLivePlaybackSpeedControl()
        case "shaka": return ShakaLiveSync()
        case "none": return NoLiveCatchUp()
        default: return nil
        }
    }

    /// ``make(_:)``, or an ``InputError`` listing the known names.
    public static func controller(named name: String) throws -> any LiveCatchUpController {
        guard let controller = make(name) else {
            throw InputError(
                .option("--controller"), .unknownName(name, kind: "catch-up controller", known: names))
        }
        return controller
    }
}
