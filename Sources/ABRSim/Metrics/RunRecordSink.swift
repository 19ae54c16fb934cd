/// Where a run's players hand their records as they make them, instead of keeping them: a run that writes its
/// tables as it goes (``StreamedRunTables``, for `abrsim run`) then holds no record per segment.
///
/// Given to ``Simulation/init(curve:players:timeLimit:allocation:priorityWeights:routes:recordsTimeline:keepsSegmentRecords:recordSink:)``,
/// which passes it to every ``Player``; called on the run's one thread. The records are those the player would
/// have kept, in the same order: ``take(segment:)`` for each ``SegmentRecord`` as it is appended, and
/// ``take(row:replacing:)`` for each ``TimelineRecord`` (every row has the kernel's current time, so rows come in
/// time order across players; `replacing` when the row replaces the player's previous one, of the same instant).
public protocol RunRecordSink: AnyObject {
    /// A segment record of player `record.player`.
    func take(segment record: SegmentRecord)
    /// A timeline row of player `row.player`; `replacing`: it replaces that player's last row, of the same time.
    func take(row: TimelineRecord, replacing: Bool)
}
