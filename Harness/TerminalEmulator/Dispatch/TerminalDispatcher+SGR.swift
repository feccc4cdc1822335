extension TerminalDispatcher {
    // MARK: - SGR

    /// SGR: sets the pen's attributes and colors. Accepts `38;5;n`, `38;2;r;g;b` and the
    /// colon forms `38:5:n`, `38:2:r:g:b`, `38:2:colorspace:r:g:b`, `38;5:n`, `38;2:r:g:b` (same for
    /// 48 and 58).
    mutating func selectGraphicRendition(_ p: CSIParameters) {
        if p.isEmpty {
            resetPen()
            return
        }
        var index = 0
        let count = p.count
        let anySubparameters = p.subparameterMask != 0
        while index < count {
            let code = p[index]
            // Sub-parameters belonging to this code (after ':'), looked for only when there are some.
            var end = index + 1
            if anySubparameters {
                while end < count && p.isSubparameter(end) { end += 1 }
            }
            let hasSubparameters = end > index + 1
            var next = end
            switch code {
            case 0: resetPen()
            case 1: set(StoredCell.bold, true)
            case 2: set(StoredCell.dim, true)
            case 3: set(StoredCell.italic, true)
            case 4: set(StoredCell.underline, !(hasSubparameters && p[index + 1] == 0))
            case 5, 6: set(StoredCell.blink, true)
            case 7: set(StoredCell.inverse, true)
            case 8: set(StoredCell.hidden, true)
            case 9: set(StoredCell.strikethrough, true)
            case 21: set(StoredCell.underline, true)
            case 22: set(StoredCell.bold | StoredCell.dim, false)
            case 23: set(StoredCell.italic, false)
            case 24: set(StoredCell.underline, false)
            case 25: set(StoredCell.blink, false)
            case 27: set(StoredCell.inverse, false)
            case 28: set(StoredCell.hidden, false)
            case 29: set(StoredCell.strikethrough, false)
            case 30...37: screen.pen.foreground = StoredCell.pack(.indexed(UInt8(code - 30)))
            case 39: screen.pen.foreground = 0
            case 40...47: screen.pen.background = StoredCell.pack(.indexed(UInt8(code - 40)))
            case 49: screen.pen.background = 0
            case 90...97: screen.pen.foreground = StoredCell.pack(.indexed(UInt8(code - 90 + 8)))
            case 100...107: screen.pen.background = StoredCell.pack(.indexed(UInt8(code - 100 + 8)))
            case 38, 48, 58:
                let color: TerminalColor?
                if hasSubparameters {
                    color = extendedColor(p, from: index + 1, to: end, colonForm: true).color
                } else if anySubparameters && p.isSubparameter(index + 2) {
                    // `38;5:n`, `38;2:r:g:b` (xterm reads them so): the next parameter's group
                    // is the colour, and codes go on after it.
                    var groupEnd = index + 2
                    while groupEnd < count && p.isSubparameter(groupEnd) { groupEnd += 1 }
                    color = extendedColor(p, from: index + 1, to: groupEnd, colonForm: true).color
                    next = groupEnd
                } else {
                    let parsed = extendedColor(p, from: index + 1, to: p.count, colonForm: false)
                    color = parsed.color
                    next = parsed.next
                }
                if let color {
                    if code == 38 { screen.pen.foreground = StoredCell.pack(color) }
                    if code == 48 { screen.pen.background = StoredCell.pack(color) }
                }
            case 26, 50...55, 59, 60...65, 73...75: break // proportional spacing, frames, overline, ideograms...
            default: unhandledSequenceCount += 1
            }
            index = next
            // A colour's values may end inside a parameter's group (`38;5;1:2`): the rest of the
            // group is not read as codes (xterm reads codes by parameter, never a sub-parameter).
            if anySubparameters {
                while index < count && p.isSubparameter(index) { index += 1 }
            }
        }
    }

    /// Reads `5;n` or `2;[colorspace;]r;g;b` starting at `start`; returns the color (nil when
    /// malformed, or out of range as xterm has it: an index or a component above 255) and the
    /// index after what it consumed.
    private func extendedColor(_ p: CSIParameters, from start: Int, to end: Int, colonForm: Bool) -> (color: TerminalColor?, next: Int) {
        guard start < end else { return (nil, end) }
        switch p[start] {
        case 5:
            guard start + 1 < end else { return (nil, end) }
            guard let index = UInt8(exactly: p[start + 1]) else { return (nil, start + 2) }
            return (.indexed(index), start + 2)
        case 2:
            // Colon form may carry a colorspace id: 2:cs:r:g:b (5 values after the 2).
            let first = colonForm && end - start >= 5 ? start + 2 : start + 1
            guard first + 2 < end else { return (nil, end) }
            guard let r = UInt8(exactly: p[first]), let g = UInt8(exactly: p[first + 1]), let b = UInt8(exactly: p[first + 2]) else {
                return (nil, first + 3)
            }
            return (.rgb(r, g, b), first + 3)
        default:
            return (nil, colonForm ? end : start + 1)
        }
    }

    private mutating func set(_ bits: UInt16, _ on: Bool) {
        if on { screen.pen.flags |= bits } else { screen.pen.flags &= ~bits }
    }

    private mutating func resetPen() {
        screen.pen = StoredCell.blank.with(link: screen.pen.link)  // SGR 0 does not close a hyperlink
    }
}
