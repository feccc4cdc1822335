/// What ED (`CSI J`) and EL (`CSI K`) erase.
enum EraseMode {
    /// From the cursor to the end (parameter 0).
    case toEnd
    /// From the start to the cursor, inclusive (parameter 1).
    case toStart
    /// Everything (parameter 2).
    case all
}
