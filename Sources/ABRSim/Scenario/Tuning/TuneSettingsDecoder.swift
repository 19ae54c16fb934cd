/// Decodes a scenario's `tune` object into ``TuneSettings``; called by ``ScenarioLoader``.
///
/// `{"objective": "max sum qoe_lin", "grid": [1, 2, 4, 8], "searchPriorities": false,
///   "maxSimplexEvaluations": 40, "binSeconds": 10}` — every key optional. The objective's selectors are
/// checked against the players when `abrsim tune` binds it (errors then name `$.tune.objective`).
enum TuneSettingsDecoder {
    static func decode(_ reader: JSONReader) throws -> TuneSettings {
        let object = try reader.object()
        var settings = TuneSettings()
        if let x = object.optional("objective") {
            settings.objective = try TuneObjective.parse(try x.string(), source: x.path, file: x.file)
        }
        if let x = object.optional("grid") {
            settings.grid = try TuneSettings.checkedGrid(try x.doubleArray(), location: x.path, file: x.file)
        }
        if let x = object.optional("searchPriorities") { settings.searchesPriorities = try x.bool() }
        if let x = object.optional("maxSimplexEvaluations") {
            settings.maxSimplexEvaluations = try x.int(in: 0...TuneSettings.maximumSimplexEvaluations)
        }
        if let x = object.optional("binSeconds") {
            settings.binSeconds = try x.double(in: TuneSettings.binSecondsRange)
        }
        try object.finish()
        return settings
    }
}
