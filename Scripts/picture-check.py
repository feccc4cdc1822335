#!/usr/bin/env python3
"""Decodes the harness's PNG and GIF pictures with Python's standard library alone (zlib,
struct), independently of the Swift encoders, and checks them.

  picture-check.py png FILE.png            every chunk's CRC, IHDR, the pixel rows; prints a summary
  picture-check.py gif FILE.gif            header, loop extension, frames and their delays
  picture-check.py pixels FILE             prints the pixels (a GIF's last frame), a row a line, as hex
  picture-check.py cells FILE SCREEN.json  draws SCREEN.json's cells with GNU Unifont (its .hex:
                                           --font, else HARNESS_UNIFONT, else
                                           /usr/share/unifont/unifont.hex) and compares every
                                           pixel with FILE's (a PNG, or a GIF's last frame)

SCREEN.json: {"cellWidth": 8, "cellHeight": 16, "rows": [[{"text": "a", "width": 1,
"fg": "#d0d0d0", "bg": "#101010", "bold": false, ...}, ...], ...]}: each cell's character, its
width (2 for a wide character, 0 for its right half), its colors after inverse, dim and the
cursor's inversion, and its flags: bold (drawn one pixel thicker), italic (the top half one
pixel to the right), underline (its bottom row), strikethrough (its middle row), hidden (its
background only). Each summary is one JSON line;
a problem exits 1 with a message naming it.
"""
import json
import os
import struct
import sys
import zlib


class Bad(Exception):
    pass


def png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Bad("not a PNG signature")
    pos, chunks = 8, []
    while pos < len(data):
        if pos + 12 > len(data):
            raise Bad("truncated chunk at byte %d" % pos)
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise Bad("bad CRC in chunk %r" % kind.decode("latin-1"))
        chunks.append((kind.decode("latin-1"), body))
        pos += 12 + length
    if not chunks or chunks[0][0] != "IHDR" or chunks[-1][0] != "IEND":
        raise Bad("chunks must start with IHDR and end with IEND, got %s" % [c[0] for c in chunks])
    width, height, depth, color, compression, filtering, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or color not in (2, 3) or compression or filtering or interlace:
        raise Bad("unexpected IHDR: depth %d, color type %d" % (depth, color))
    palette = None
    for kind, body in chunks:
        if kind == "PLTE":
            palette = [body[i:i + 3].hex() for i in range(0, len(body), 3)]
    if color == 3 and palette is None:
        raise Bad("an indexed PNG without PLTE")
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == "IDAT"))
    step = 1 if color == 3 else 3
    stride = width * step
    if len(raw) != height * (stride + 1):
        raise Bad("IDAT holds %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - step] if x >= step else 0
            up, corner = previous[x], previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                best = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[x] = (line[x] + best) & 0xFF
            elif kind != 0:
                raise Bad("unknown filter %d on row %d" % (kind, y))
        previous = line
        if color == 3:
            rows.append([palette[i] for i in line])
        else:
            rows.append([line[i:i + 3].hex() for i in range(0, stride, 3)])
    summary = {"format": "png", "width": width, "height": height, "chunks": [c[0] for c in chunks],
               "colors": len({p for row in rows for p in row})}
    return summary, rows


def gif(data):
    if data[:6] != b"GIF89a":
        raise Bad("not a GIF89a header")
    width, height, packed = struct.unpack("<HHB", data[6:11])
    pos = 13
    table = []
    if packed & 0x80:
        size = 2 << (packed & 7)
        table = [data[pos + 3 * i:pos + 3 * i + 3].hex() for i in range(size)]
        pos += 3 * size
    canvas = [[table[data[11]] if table else "000000"] * width for _ in range(height)]
    delays, loop, delay = [], None, None
    while True:
        if pos >= len(data):
            raise Bad("no trailer (0x3B)")
        block = data[pos]
        if block == 0x3B:
            break
        if block == 0x21:
            label = data[pos + 1]
            pos += 2
            payload, pos = subblocks(data, pos)
            if label == 0xF9:
                (delay,) = struct.unpack("<H", payload[1:3])
            elif label == 0xFF and payload[:11] == b"NETSCAPE2.0":
                (loop,) = struct.unpack("<H", payload[12:14])
        elif block == 0x2C:
            left, top, w, h, flags = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
            pos += 10
            colors = table
            if flags & 0x80:
                size = 2 << (flags & 7)
                colors = [data[pos + 3 * i:pos + 3 * i + 3].hex() for i in range(size)]
                pos += 3 * size
            minimum = data[pos]
            pos += 1
            codes, pos = subblocks(data, pos)
            pixels = lzw(codes, minimum)
            if len(pixels) < w * h:
                raise Bad("frame %d holds %d pixels, expected %d" % (len(delays), len(pixels), w * h))
            if left + w > width or top + h > height:
                raise Bad("frame %d lies outside the picture" % len(delays))
            for y in range(h):
                for x in range(w):
                    canvas[top + y][left + x] = colors[pixels[y * w + x]]
            delays.append(delay)
            delay = None
        else:
            raise Bad("unknown block 0x%02x at byte %d" % (block, pos))
    summary = {"format": "gif", "width": width, "height": height, "frames": len(delays), "delays": delays,
               "loop": loop, "colors": len(table)}
    return summary, canvas


def subblocks(data, pos):
    """The bytes of the data sub-blocks starting at pos, and where they end."""
    joined = b""
    while pos < len(data) and data[pos]:
        joined += data[pos + 1:pos + 1 + data[pos]]
        pos += 1 + data[pos]
    if pos >= len(data):
        raise Bad("truncated data sub-blocks")
    return joined, pos + 1


def lzw(data, minimum):
    clear, end = 1 << minimum, (1 << minimum) + 1
    size, bit, out = minimum + 1, 0, []
    table, previous = None, None
    total = len(data) * 8
    while bit + size <= total:
        code = (int.from_bytes(data[bit // 8:bit // 8 + 3].ljust(3, b"\0"), "little") >> (bit % 8)) & ((1 << size) - 1)
        bit += size
        if code == clear:
            table = [[i] for i in range(clear)] + [None, None]
            size, previous = minimum + 1, None
            continue
        if code == end:
            return out
        if table is None:
            raise Bad("LZW data does not start with a clear code")
        if code < len(table) and table[code] is not None:
            entry = table[code]
            if previous is not None:
                table.append(previous + entry[:1])
        elif code == len(table) and previous is not None:
            entry = previous + previous[:1]
            table.append(entry)
        else:
            raise Bad("bad LZW code %d (table of %d)" % (code, len(table)))
        out.extend(entry)
        previous = entry
        if len(table) == 1 << size and size < 12:
            size += 1
    raise Bad("LZW data without an end code")


def font(path):
    glyphs = {}
    with open(path) as handle:
        for line in handle:
            code, bits = line.strip().split(":")
            glyphs[int(code, 16)] = bits
    return glyphs


def cells(rows, screen, glyphs):
    cw, ch = screen["cellWidth"], screen["cellHeight"]
    problems = []
    for r, line in enumerate(screen["rows"]):
        for c, cell in enumerate(line):
            if cell["width"] == 0:
                continue
            span = cw * max(1, cell["width"])
            ink, paper = cell["fg"].lstrip("#"), cell["bg"].lstrip("#")
            text = cell["text"]
            bits = glyphs.get(ord(text[0])) if text.strip() else None
            gw = len(bits) // 4 if bits else 0
            offset = (span - gw) // 2 if bits and gw < span else 0
            for y in range(ch):
                for x in range(span):
                    gx = x - offset
                    def bit(x):
                        return bool(bits) and 0 <= x < gw and int(bits[y * gw // 4:(y + 1) * gw // 4], 16) >> (gw - 1 - x) & 1
                    if cell.get("italic") and y < ch // 2:
                        gx -= 1
                    on = 0 <= gx < min(gw, span) and (bit(gx) or (cell.get("bold") and bit(gx - 1)))
                    on = on or (cell.get("underline") and y == ch - 1) or (cell.get("strikethrough") and y == ch // 2)
                    on = on and not cell.get("hidden")
                    want = ink if on else paper
                    got = rows[r * ch + y][c * cw + x]
                    if got != want:
                        problems.append("row %d col %d %r: pixel (%d, %d) is #%s, expected #%s" % (r, c, text, x, y, got, want))
                        break
                else:
                    continue
                break
    return problems


def main(argv):
    if len(argv) < 3 or argv[1] not in ("png", "gif", "pixels", "cells"):
        print(__doc__, file=sys.stderr)
        return 64
    try:
        with open(argv[2], "rb") as handle:
            data = handle.read()
        summary, rows = png(data) if data[:4] == b"\x89PNG" else gif(data)
        if argv[1] == "pixels":
            print("\n".join(" ".join(row) for row in rows))
            return 0
        if argv[1] != "cells":
            if summary["format"] != argv[1]:
                raise Bad("%s is a %s, not a %s" % (argv[2], summary["format"], argv[1]))
            print(json.dumps(summary))
            return 0
        with open(argv[3]) as handle:
            screen = json.load(handle)
        path = argv[argv.index("--font") + 1] if "--font" in argv else os.environ.get("HARNESS_UNIFONT") or "/usr/share/unifont/unifont.hex"
        problems = cells(rows, screen, font(path))
        expected = (len(screen["rows"]) * screen["cellHeight"], len(screen["rows"][0]) * screen["cellWidth"])
        if (len(rows), len(rows[0])) != expected:
            problems.insert(0, "the picture is %dx%d pixels, expected %dx%d" % (len(rows[0]), len(rows), expected[1], expected[0]))
        if problems:
            raise Bad("%d cells differ:\n%s" % (len(problems), "\n".join(problems[:20])))
        print(json.dumps({"cells": sum(len(line) for line in screen["rows"]), "differ": 0}))
        return 0
    except (Bad, OSError) as problem:
        print("%s: %s" % (argv[2], problem), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
