extension X11Request {
    /// CreateGC (55): graphics context `gc` for drawables of `drawable`'s root and depth.
    public static func createGC(_ gc: GraphicsContextID, drawable: WindowID, values: GraphicsContextValues = GraphicsContextValues()) -> X11Request {
        let list = values.valueList()
        return core("CreateGC", opcode: 55, expectsReply: false) { writer in
            writer.u32(gc.rawValue)
            writer.u32(drawable.rawValue)
            writer.u32(list.mask)
            for value in list.values { writer.u32(value) }
        }
    }

    /// FreeGC (60).
    public static func freeGC(_ gc: GraphicsContextID) -> X11Request {
        core("FreeGC", opcode: 60, expectsReply: false) { $0.u32(gc.rawValue) }
    }

    /// The bytes of PutImage's fixed part: the header and drawable, gc, width, height, dst-x,
    /// dst-y, left-pad, depth and two unused bytes.
    static let putImageFieldBytes = 20

    /// PutImage (72) of a ZPixmap image of `width`×`height` pixels at (`x`, `y`) of `drawable`,
    /// as as many requests as the server's maximum (`maximumRequestBytes`, BIG-REQUESTS' when
    /// enabled) needs, each a band of whole rows at its own dst-y (protocol spec, PutImage: the
    /// image is sent as it lies, so rows can go in separate requests).
    ///
    /// `pixels` holds four bytes a pixel, rows top to bottom with no gap: the ZPixmap format of
    /// depth 24 (and 32) on every server since XFree86 4 (32 bits per pixel, scanlines padded to
    /// 32 bits), in the server's byte order, which for a little-endian server (ours: Xorg, Xvfb,
    /// Xwayland on x86 and arm) is blue, green, red, unused. A row is thus already a multiple of
    /// four bytes and no padding is added. The bands share `pixels`' storage, never copied.
    ///
    /// Refused, never truncated: a size that does not match `pixels`, an empty image, a depth
    /// other than 24 or 32, a single row longer than a request can hold, or rows below y 32767.
    public static func putImage(
        drawable: WindowID, gc: GraphicsContextID, x: Int16, y: Int16, width: UInt16, height: UInt16, depth: UInt8 = 24,
        pixels: [UInt8], maximumRequestBytes: Int
    ) throws(X11Error) -> [X11Request] {
        guard width > 0, height > 0 else { throw .invalidArgument("PutImage: an image of \(width)×\(height) has no pixels") }
        guard depth == 24 || depth == 32 else { throw .invalidArgument("PutImage: depth \(depth) is not 24 or 32 (four bytes a pixel)") }
        let rowBytes = Int(width) * 4
        guard pixels.count == rowBytes * Int(height) else {
            throw .invalidArgument("PutImage: \(pixels.count) bytes are not \(width)×\(height) pixels of four bytes")
        }
        guard Int(y) + Int(height) - 1 <= Int(Int16.max) else {
            throw .invalidArgument("PutImage: rows from y \(y) to \(Int(y) + Int(height) - 1) go past 32767, where dst-y ends")
        }
        // Over the core limit a request carries BIG-REQUESTS' extra length word.
        let head = 4 + putImageFieldBytes + (maximumRequestBytes > X11Wire.coreLengthLimit * 4 ? 4 : 0)
        let rowsPerRequest = min(Int(height), max(0, maximumRequestBytes - head) / rowBytes)
        guard rowsPerRequest > 0 else {
            throw .invalidArgument("PutImage: a row of \(rowBytes) bytes does not fit a request of \(maximumRequestBytes) bytes")
        }
        var requests: [X11Request] = []
        requests.reserveCapacity((Int(height) + rowsPerRequest - 1) / rowsPerRequest)
        var rest = ByteRun(pixels)
        var row = 0
        while row < Int(height) {
            let rows = min(rowsPerRequest, Int(height) - row)
            let (band, after) = rest.split(at: rows * rowBytes)
            rest = after
            let bandY = Int16(Int(y) + row)  // checked above: every row's y is at most 32767
            requests.append(try withTrailer("PutImage", opcode: 72, data: 2, fieldBytes: putImageFieldBytes, trailer: [band], expectsReply: false) { writer in
                writer.u32(drawable.rawValue)
                writer.u32(gc.rawValue)
                writer.u16(width)
                writer.u16(UInt16(rows))  // at most `height`
                writer.i16(x)
                writer.i16(bandY)
                writer.u8(0)  // left-pad: 0 for ZPixmap
                writer.u8(depth)
                writer.zeros(2)
            })
            row += rows
        }
        return requests
    }
}

extension X11Request {
    /// GetImage (73), ZPixmap, all planes, of the `width`×`height` rectangle at (`x`, `y`) of
    /// `drawable`: what a window shows, for a screenshot of the drag handle or a check that it
    /// was drawn. Refused when the rectangle is empty.
    public static func getImage(drawable: WindowID, x: Int16, y: Int16, width: UInt16, height: UInt16) throws(X11Error) -> X11Request {
        guard width > 0, height > 0 else { throw .invalidArgument("GetImage: a rectangle of \(width)×\(height) has no pixels") }
        return core("GetImage", opcode: 73, data: 2, expectsReply: true) { writer in
            writer.u32(drawable.rawValue)
            writer.i16(x)
            writer.i16(y)
            writer.u16(width)
            writer.u16(height)
            writer.u32(0xffff_ffff)  // plane mask: every plane
        }
    }
}

extension X11Reply {
    /// The pixels of a GetImage reply of `width`×`height` pixels at 32 bits a pixel (depth 24 or
    /// 32, ZPixmap): four bytes a pixel, rows top to bottom. A reply of another depth or size is
    /// refused, never read past.
    public static func image(_ reply: [UInt8], width: UInt16, height: UInt16) throws -> [UInt8] {
        _ = try body(reply, "GetImage reply")
        let depth = reply[1]  // a reply is 32 bytes or more, checked by `body`
        guard depth == 24 || depth == 32 else { throw X11Error.malformedFromServer("GetImage reply: depth \(depth), not 24 or 32") }
        let expected = Int(width) * Int(height) * 4
        guard reply.count - 32 == expected else {
            throw X11Error.malformedFromServer("GetImage reply: \(reply.count - 32) bytes for \(width)×\(height) pixels of four bytes")
        }
        return Array(reply[32...])
    }
}
