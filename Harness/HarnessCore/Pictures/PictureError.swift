/// Why a picture of the screen (PNG, GIF) could not be made.
package enum PictureError: Error, Equatable, CustomStringConvertible {
    /// No GNU Unifont `.hex` file was found: `searched` lists where the harness looked.
    case fontNotFound(searched: [String])
    /// The font file could not be read.
    case fontUnreadable(path: String, reason: String)
    /// The font file is not in Unifont's `.hex` format (or is compressed).
    case notAHexFont(path: String, reason: String)

    /// A message for the user, with what to do.
    package var description: String {
        switch self {
        case .fontNotFound(let searched):
            "GNU Unifont not found (looked at \(searched.joined(separator: ", "))): install it (Debian and Ubuntu: "
                + "apt-get install unifont) or set \(UnifontFont.environmentVariable) to a unifont .hex file"
        case .fontUnreadable(let path, let reason):
            "cannot read the font \(path): \(reason)"
        case .notAHexFont(let path, let reason):
            "\(path) is not a GNU Unifont .hex font: \(reason)"
        }
    }
}
