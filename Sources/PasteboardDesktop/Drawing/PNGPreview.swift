import CZlib

/// A PNG decoded for a preview on a drag handle: the image as RGBA, through Debian's zlib for
/// the compressed data (the one library it needs; the bridge links no image library). Every
/// number in the file is checked before it sizes anything, since the file is whatever a drag
/// carries: at most 8192 pixels a side and 64 MiB of raw image data, else no preview.
///
/// Decodes the non-interlaced images of every colour type at every bit depth (gray 1–16, RGB
/// 8/16, palette 1–8 with tRNS transparency, gray+alpha and RGBA 8/16; 16-bit samples are
/// shown by their high byte). An interlaced (Adam7) PNG gets no preview: a handle shows its
/// title instead, which is what it shows for any image it cannot read.
public enum PNGPreview {
    /// The most raw (filtered) image bytes decoded for a preview.
    static let rawLimit = 64 << 20

    /// The image in `bytes`, or nil when they are not a PNG this decodes.
    public static func decode(_ bytes: [UInt8]) -> RGBAImage? {
        guard bytes.count > 8, bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else { return nil }
        var header: Header?
        var palette: [UInt8] = []
        var transparency: [UInt8] = []
        var compressed: [UInt8] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= 0x7fff_ffff, offset + 12 + length <= bytes.count else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
            let stored = UInt32(bytes[offset + 8 + length]) << 24 | UInt32(bytes[offset + 9 + length]) << 16
                | UInt32(bytes[offset + 10 + length]) << 8 | UInt32(bytes[offset + 11 + length])
            let computed = bytes[(offset + 4)..<(offset + 8 + length)].withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            guard stored == computed else { return nil }
            switch type {
            case "IHDR": header = Header(data)
            case "PLTE": palette = data
            case "tRNS": transparency = data
            case "IDAT":
                compressed += data
                guard compressed.count <= rawLimit else { return nil }
            case "IEND": offset = bytes.count
            default: break
            }
            offset += 12 + length
        }
        guard let header, header.interlace == 0 else { return nil }
        guard let raw = inflate(compressed, expected: header.rawSize), let rows = unfilter(raw, header) else { return nil }
        return header.rgba(rows, palette: palette, transparency: transparency)
    }

    /// IHDR: the size and the pixel format.
    struct Header {
        let width: Int
        let height: Int
        let bitDepth: Int
        let colorType: Int
        let interlace: Int

        init?(_ data: [UInt8]) {
            guard data.count == 13 else { return nil }
            let width = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
            let height = Int(data[4]) << 24 | Int(data[5]) << 16 | Int(data[6]) << 8 | Int(data[7])
            guard (1...RGBAImage.largestSide).contains(width), (1...RGBAImage.largestSide).contains(height) else { return nil }
            let valid: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
            guard valid[Int(data[9])]?.contains(Int(data[8])) == true, data[10] == 0, data[11] == 0 else { return nil }
            self.width = width
            self.height = height
            bitDepth = Int(data[8])
            colorType = Int(data[9])
            interlace = Int(data[12])
        }

        /// Samples per pixel.
        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }
        /// Bytes per row, without the filter byte.
        var rowBytes: Int { (width * channels * bitDepth + 7) / 8 }
        /// Bytes per complete pixel, at least 1 (the filters' left neighbour).
        var pixelBytes: Int { max(1, channels * bitDepth / 8) }
        /// The inflated size: each row and its filter byte.
        var rawSize: Int { (rowBytes + 1) * height }

        /// Sample `index` of a row (scaled to 8 bits).
        func sample(_ row: ArraySlice<UInt8>, _ index: Int) -> UInt8 {
            let base = row.startIndex
            switch bitDepth {
            case 16: return row[base + index * 2]
            case 8: return row[base + index]
            default:
                let bit = index * bitDepth
                let value = (row[base + bit / 8] >> (8 - bitDepth - bit % 8)) & UInt8((1 << bitDepth) - 1)
                return colorType == 3 ? value : UInt8(Int(value) * 255 / ((1 << bitDepth) - 1))
            }
        }

        func rgba(_ rows: [UInt8], palette: [UInt8], transparency: [UInt8]) -> RGBAImage? {
            if colorType == 3, palette.isEmpty || palette.count % 3 != 0 { return nil }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                let row = rows[(y * rowBytes)..<((y + 1) * rowBytes)]
                for x in 0..<width {
                    let out = (y * width + x) * 4
                    switch colorType {
                    case 0:
                        let gray = sample(row, x)
                        pixels.replaceSubrange(out..<(out + 4), with: [gray, gray, gray, 255])
                    case 2:
                        pixels.replaceSubrange(out..<(out + 4), with: [sample(row, x * 3), sample(row, x * 3 + 1), sample(row, x * 3 + 2), 255])
                    case 3:
                        let index = Int(sample(row, x))
                        guard index * 3 + 2 < palette.count else { return nil }
                        let alpha = index < transparency.count ? transparency[index] : 255
                        pixels.replaceSubrange(out..<(out + 4), with: [palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha])
                    case 4:
                        let gray = sample(row, x * 2)
                        pixels.replaceSubrange(out..<(out + 4), with: [gray, gray, gray, sample(row, x * 2 + 1)])
                    default:
                        pixels.replaceSubrange(out..<(out + 4), with: (0..<4).map { sample(row, x * 4 + $0) })
                    }
                }
            }
            return RGBAImage(width: width, height: height, bytes: pixels)
        }
    }

    /// `compressed` inflated to exactly `expected` bytes (nil if it is more than the limit,
    /// another size, or not zlib data).
    static func inflate(_ compressed: [UInt8], expected: Int) -> [UInt8]? {
        guard expected <= rawLimit, !compressed.isEmpty else { return nil }
        var output = [UInt8](repeating: 0, count: expected)
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        let status: Int32 = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expected else { return nil }
        return output
    }

    /// The rows of `raw` with PNG's filters undone (each row's first byte names its filter).
    static func unfilter(_ raw: [UInt8], _ header: Header) -> [UInt8]? {
        let rowBytes = header.rowBytes, step = header.pixelBytes
        var rows = [UInt8](repeating: 0, count: rowBytes * header.height)
        for y in 0..<header.height {
            let filter = raw[y * (rowBytes + 1)]
            let source = y * (rowBytes + 1) + 1, target = y * rowBytes
            for x in 0..<rowBytes {
                let value = raw[source + x]
                let left = x >= step ? Int(rows[target + x - step]) : 0
                let up = y > 0 ? Int(rows[target - rowBytes + x]) : 0
                let upLeft = (y > 0 && x >= step) ? Int(rows[target - rowBytes + x - step]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predicted = a <= b && a <= c ? left : (b <= c ? up : upLeft)
                default: return nil
                }
                rows[target + x] = UInt8(truncatingIfNeeded: Int(value) + predicted)
            }
        }
        return rows
    }
}
