import Foundation
import Pasteboard
import PasteboardTypes
import Testing

struct ImportTests {
    @Test func picksTheFirstImporterTheContentTypeConformsTo() async throws {
        struct Picture: Transferable {
            var via: String
            static var transferRepresentations: [TransferRepresentation<Picture>] {
                [
                    .data(contentType: .jpeg, importing: { _ in Picture(via: "jpeg") }),
                    .data(contentType: .image, importing: { _ in Picture(via: "image") }),
                    .data(contentType: .data, importing: { _ in Picture(via: "data") }),
                ]
            }
        }
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        #expect(try await Picture.importing(.data(png), contentType: .png).via == "image")
        #expect(try await Picture.importing(.data(png), contentType: .jpeg).via == "jpeg")
        #expect(try await Picture.importing(.data(png), contentType: .pdf).via == "data")
    }

    @Test func dropItemListsURLThenTextThenImageTypes() {
        #expect(DropItem.importableContentTypes == [.url, .utf8PlainText, .utf16PlainText, .plainText, .image])
    }

    @Test func dropItemImportsEachKindByContentType() async throws {
        let text = try await DropItem.importing(.data(Data("hello".utf8)), contentType: .utf8PlainText)
        #expect(text == .text("hello"))
        let web = try await DropItem.importing(.data(Data("https://swift.org\r\n".utf8)), contentType: .url)
        #expect(web == .url(URL(string: "https://swift.org")!))
        let file = try await DropItem.importing(.data(Data("file:///tmp/a.txt".utf8)), contentType: .fileURL)
        #expect(file == .url(URL(fileURLWithPath: "/tmp/a.txt")))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try await DropItem.importing(.data(png), contentType: .png) == .image(png))
    }

    @Test func dropItemRejectsUnrelatedTypeNamingWhatItAccepts() async {
        let error = await transferError { try await DropItem.importing(.data(Data("{}".utf8)), contentType: .json) }
        guard case .noImportableRepresentation(let type, let accepted)? = error else {
            Issue.record("expected noImportableRepresentation, got \(String(describing: error))"); return
        }
        #expect(type == .json)
        #expect(accepted == DropItem.importableContentTypes)
        #expect(error?.description == "cannot import public.json: accepted types are public.url, public.utf8-plain-text, "
                + "public.utf16-plain-text, public.plain-text, public.image (or types conforming to them)")
    }

    @Test func codableRoundTripAndDecodingError() async throws {
        let note = Note(title: "Plan", body: "ship it")
        let json = try await note.exportedRepresentations()[0].bytes()
        #expect(try await Note.importing(.data(json), contentType: Note.noteType) == note)
        let error = await transferError {
            try await Note.importing(.data(Data(#"{"title":"x"}"#.utf8)), contentType: Note.noteType)
        }
        #expect(error?.description == "cannot decode com.example.note: missing key 'body'")
    }

    @Test func dataImporterReadsAFile() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("transferable-\(UUID()).txt")
        try Data("from a file".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = ReceivedFile(url: url, isOriginalFile: true)
        #expect(try await String.importing(.file(file), contentType: .utf8PlainText) == "from a file")
        #expect(FileManager.default.fileExists(atPath: url.path), "the source's file must be left alone")

        let missing = ReceivedFile(url: URL(fileURLWithPath: "/nonexistent/x.txt"), isOriginalFile: true)
        let error = await transferError { try await String.importing(.file(missing), contentType: .utf8PlainText) }
        #expect(error?.description == "/nonexistent/x.txt: cannot open: No such file or directory")
    }

    @Test func fileImporterGetsBytesAsATemporaryFileDeletedAfterwards() async throws {
        struct Scan: Transferable {
            var bytes: Data
            var file: ReceivedFile
            static var transferRepresentations: [TransferRepresentation<Scan>] {
                [.file(contentType: .image, importing: { Scan(bytes: try Data(contentsOf: $0.url), file: $0) })]
            }
        }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let scan = try await Scan.importing(.data(png), contentType: .png)
        #expect(scan.bytes == png)
        #expect(!scan.file.isOriginalFile)
        #expect(scan.file.url.path.hasPrefix("/tmp/pasteboard-import-"))
        #expect(scan.file.url.pathExtension == "png")
        #expect(!FileManager.default.fileExists(atPath: scan.file.url.path), "temporary file must be deleted")
    }

    @Test func stringRejectsInvalidUTF8AndReadsUTF16() async throws {
        let error = await transferError {
            try await String.importing(.data(Data([0x68, 0x69, 0xFF, 0x21])), contentType: .utf8PlainText)
        }
        #expect(error?.description == "cannot decode public.utf8-plain-text: not valid UTF-8 (bad byte at offset 2)")
        let utf16 = Data([0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00])  // little-endian BOM, "hé"
        #expect(try await String.importing(.data(utf16), contentType: .utf16PlainText) == "hé")
        // Any plain text is read as UTF-8, here an app-declared type; HTML or JSON is not plain text.
        let log = TypeDeclaration(identifier: "com.example.log", conformsTo: [.plainText])
        let registry = TypeRegistry.builtIn.adding([log], source: "test").registry
        #expect(try await String.importing(.data(Data("ok".utf8)), contentType: log.identifier, registry: registry) == "ok")
        #expect(await transferError { try await String.importing(.data(Data("<p>".utf8)), contentType: .html) } != nil)
    }

    @Test func uRLAndDataBuiltins() async throws {
        let list = Data("# bookmarks\n\nhttps://a.example/x\nhttps://b.example\n".utf8)
        #expect(try await URL.importing(.data(list), contentType: .url) == URL(string: "https://a.example/x"))
        let error = await transferError { try await URL.importing(.data(Data("not a url".utf8)), contentType: .url) }
        #expect(error?.description == "cannot decode public.url: 'not a url' is not an absolute URL")
        let bytes = Data([0, 1, 2, 255])
        #expect(try await Data.importing(.data(bytes), contentType: .zipArchive) == bytes)
        #expect(bytes.exportedRepresentations().map(\.contentType) == [.data])
    }
}
