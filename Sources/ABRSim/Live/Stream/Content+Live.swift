extension Content {
    /// This content played live as `stream`. With a part target, each segment is split into parts of that
    /// duration (the last part of a segment shorter when it does not divide evenly), each part's size its share of
    /// the segment's bits by duration: the units an LL-HLS player requests (`EXT-X-PART`) or a CMAF chunk. Called by
    /// the scenario decoder and the HLS reader.
    public func playedLive(as stream: LiveStream) throws -> Content {
        var durations = Array(segmentDurations)
        var sizes = (0..<segmentCount).map { segment in
            (0..<variantCount).map { sizeBits(segment: segment, variant: $0) }
        }
        if let part = stream.partTargetSeconds {
            var partDurations: [Double] = []
            var partSizes: [[Double]] = []
            for (segment, duration) in segmentDurations.enumerated() {
                for piece in Content.splitDuration(duration, into: part) {
                    partDurations.append(piece)
                    partSizes.append(sizes[segment].map { $0 * piece / duration })
                }
            }
            guard partDurations.count <= Content.maximumSegmentCount else {
                throw InputError(
                    .none,
                    .overLimit("\(partDurations.count) parts", limit: "\(Content.maximumSegmentCount) segments"))
            }
            durations = partDurations
            sizes = partSizes
        }
        return try Content(
            variants: variants, segmentDurations: durations, sizesBits: sizes, startVariantIndex: startVariantIndex,
            live: stream)
    }
}
