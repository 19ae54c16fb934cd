/// A scheduled event of a ``Kernel``, by which its owner can cancel or move it.
///
/// Returned by ``Kernel/schedule(at:_:)``. A handle outlives its event harmlessly: cancelling or moving an event
/// that has already happened does nothing. Owners keep the handle of their pending event (typically as an
/// optional property) and drop it when the event happens.
public struct TimerHandle: Equatable, Sendable {
    /// The kernel's slot for the event.
    let slot: Int32
    /// The sequence number the event was first scheduled under: tells this event from later users of the slot.
    let serial: UInt64
}
