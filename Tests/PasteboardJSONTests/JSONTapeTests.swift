import PasteboardJSON
import XCTest

/// The one reader: RFC 8259 syntax with errors that say where, escapes decoded, repeated
/// member names refused in objects of any size, and nesting bounded.
final class JSONTapeTests: XCTestCase {
    private func value(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONValue.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func testValuesOfEveryKind() throws {
        XCTAssertEqual(try value(#" {"a":[1,-2.5e3,true,false,null],"b":{"c":"d"}} "#),
                       .object(["a": .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]), "b": .object(["c": .string("d")])]))
        XCTAssertEqual(try value("[]"), .array([]))
        XCTAssertEqual(try value("{}"), .object([:]))
        XCTAssertEqual(try value(#""é😀""#), .string("é😀"))
    }

    func testEscapesAreDecodedInValuesAndMemberNames() throws {
        XCTAssertEqual(try value(#"["a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00"]"#), .array([.string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀")]))
        // A member name written with escapes is the same name.
        XCTAssertEqual(try value(#"{"\u006fp":1}"#), .object(["op": .number("1")]))
        XCTAssertEqual(syntaxError(#"{"op":1,"\u006fp":2}"#)?.reason, "member 'op' appears more than once")
        let bytes = Array(#"{"\u006fp":"\u0063redit","a long name with \"quotes\"":2}"#.utf8)
        try bytes.withUnsafeBytes { buffer in
            let tape = try JSONTape(buffer)
            XCTAssertEqual(tape.member("op", ofObjectAt: 0).flatMap(tape.string(at:)), "credit")
            XCTAssertEqual(tape.member("a long name with \"quotes\"", ofObjectAt: 0).flatMap(tape.numberText(at:)), "2")
            XCTAssertNil(tape.member("missing", ofObjectAt: 0))
        }
    }

    func testSyntaxErrorsSayWhatAndWhere() {
        let cases: [(String, String)] = [
            ("", "unexpected end of input at byte 0"),
            ("nul", "unexpected character at byte 0"),
            ("[1,]", "unexpected character at byte 3"),
            (#"{"a" 1}"#, "expected ':' at byte 5"),
            (#"{"a":1 "b":2}"#, "expected ',' or '}' at byte 7"),
            (#"{1:2}"#, "expected a member name at byte 1"),
            ("[1 2]", "expected ',' or ']' at byte 3"),
            ("01", "unexpected text after the value at byte 1"),
            ("-", "invalid number at byte 1"),
            ("1.", "invalid number at byte 2"),
            ("\"a\u{01}\"", "control character in a string at byte 2"),
            (#""\x""#, "invalid escape at byte 2"),
            (#""\ud83d""#, "unpaired surrogate at byte 7"),
            (#""abc"#, "unterminated string at byte 4"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(syntaxError(text)?.description, expected, text)
        }
        XCTAssertEqual((try? JSONValue.parse([0x22, 0x61, 0xC3, 0x28, 0x22]))?.typeName, nil, "invalid UTF-8 is refused")
    }

    /// Past `membersComparedDirectly` names, a set finds the repetition: refused however large the object.
    func testRepeatedNamesAreRefusedInObjectsOfAnySize() {
        for count in [2, 31, 32, 33, 200] {
            let names = (0..<count).map { #""member\#($0)":\#($0)"# }
            XCTAssertNotNil(try? value("{" + names.joined(separator: ",") + "}"), "\(count) distinct names")
            let repeated = "{" + (names + [#""member\#(count / 2)":0"#]).joined(separator: ",") + "}"
            XCTAssertEqual(syntaxError(repeated)?.reason, "member 'member\(count / 2)' appears more than once", "\(count) names")
        }
    }

    func testNestingIsBounded() {
        let deepest = JSONTape.maximumDepth
        XCTAssertNotNil(try? value(String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)))
        XCTAssertEqual(syntaxError(String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1))?.reason,
                       "nesting deeper than \(deepest)")
    }

    func testIntegersAreReadFromTheirDigits() throws {
        func integer<T: FixedWidthInteger>(_ text: String, _ type: T.Type) -> Result<T, JSONError> {
            Array(text.utf8).withUnsafeBytes { buffer in
                Result { () throws(JSONError) in
                    let tape: JSONTape
                    do throws(JSONSyntaxError) { tape = try JSONTape(buffer) } catch { throw JSONError(.notJSON(error)) }
                    return try tape.integer(at: 0, as: T.self)
                }
            }
        }
        XCTAssertEqual(try integer("-9223372036854775808", Int.self).get(), Int.min)
        XCTAssertEqual(try integer("2147483647", Int32.self).get(), Int32.max)
        XCTAssertEqual(try integer("-0", Int.self).get(), 0)
        XCTAssertEqual(integer("2147483648", Int32.self), .failure(JSONError(.invalid("2147483648 is out of range (-2147483648 to 2147483647)"))))
        XCTAssertEqual(integer("1e0", Int.self), .failure(JSONError(.invalid("1e0 is not an integer (integers are written without a fraction or an exponent)"))))
        XCTAssertEqual(integer("\"1\"", Int.self), .failure(JSONError(.wrongType)))
    }
}
