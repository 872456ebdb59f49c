import PasteboardJSON
import XCTest

/// The Codable writer of the daemon's archive headers: every scalar a keyed, an unkeyed and a
/// single-value container takes, written compactly in encoding order.
final class JSONBytesEncoderTests: XCTestCase {
    private struct Scalars: Encodable {
        var text = "a\"b"
        var integer = -7
        var flag = true
        var small: Int32 = 2_147_483_647
        var unsigned: UInt32 = 4_294_967_295
        var fraction = 2.5
        var whole = 3.0
        var absent: String? = nil
        var list: [String?] = ["x", nil]
        var numbers: [Int] = [1, -2]
        var flags: [Bool] = [false, true]
        var atoms: [UInt32] = [0, 9]
        var nested = Nested()

        struct Nested: Encodable {
            var inner: [Int32] = [5]
            var empty: [String] = []
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(integer, forKey: .integer)
            try container.encode(flag, forKey: .flag)
            try container.encode(small, forKey: .small)
            try container.encode(unsigned, forKey: .unsigned)
            try container.encode(fraction, forKey: .fraction)
            try container.encode(whole, forKey: .whole)
            try container.encodeNil(forKey: .absent)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            for element in self.list {
                if let element { try list.encode(element) } else { try list.encodeNil() }
            }
            var numbers = container.nestedUnkeyedContainer(forKey: .numbers)
            for number in self.numbers { try numbers.encode(number) }
            try container.encode(flags, forKey: .flags)
            var atoms = container.nestedUnkeyedContainer(forKey: .atoms)
            for atom in self.atoms { try atoms.encode(atom) }
            try container.encode(nested, forKey: .nested)
        }

        enum CodingKeys: String, CodingKey {
            case text, integer, flag, small, unsigned, fraction, whole, absent, list, numbers, flags, atoms, nested
        }
    }

    func testEveryScalarOfEveryContainer() throws {
        XCTAssertEqual(String(decoding: try JSONBytesEncoder.encode(Scalars()), as: UTF8.self),
                       #"{"text":"a\"b","integer":-7,"flag":true,"small":2147483647,"unsigned":4294967295,"fraction":2.5,"whole":3,"absent":null,"#
                       + #""list":["x",null],"numbers":[1,-2],"flags":[false,true],"atoms":[0,9],"nested":{"inner":[5],"empty":[]}}"#)
    }

    func testSingleValuesAndWrappers() throws {
        XCTAssertEqual(String(decoding: try JSONBytesEncoder.encode(["k": true]), as: UTF8.self), #"{"k":true}"#)
        XCTAssertEqual(String(decoding: try JSONBytesEncoder.encode([false]), as: UTF8.self), "[false]")
        XCTAssertEqual(String(decoding: try JSONBytesEncoder.encode(["s"]), as: UTF8.self), #"["s"]"#)
    }

    func testANonFiniteNumberThrowsNamingItsMember() {
        struct Bad: Encodable { var ratio = Double.infinity }
        XCTAssertThrowsError(try JSONBytesEncoder.encode(Bad())) { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["ratio"])
        }
    }
}
