import Foundation
import Pasteboard
import PasteboardTypes
import Synchronization
import Testing

struct ExportTests {
    @Test func exportsInOrderWithProxiesExpandedAndDuplicateTypesDropped() async throws {
        let note = Note(title: "Groceries", body: "milk")
        let exported = note.exportedRepresentations()
        // String's import-only representations (UTF-16, plain text) are not exported.
        #expect(exported.map(\.contentType) == [Note.noteType, .utf8PlainText, .data])
        // The first representation of a type wins: the proxy's plain title, not "title\nbody".
        #expect(try await exported[1].bytes() == Data("Groceries".utf8))
        #expect(try await exported[0].bytes() == Data(#"{"body":"milk","title":"Groceries"}"#.utf8))
    }

    @Test func exportRunsOnlyWhenTheClosureIsCalled() async throws {
        let exported = Note(title: "t", body: "lazy").exportedRepresentations()
        let before = Note.rawExports.load(ordering: .relaxed)
        #expect(Note.rawExports.load(ordering: .relaxed) == before)
        #expect(try await exported[2].bytes() == Data("lazy".utf8))
        #expect(Note.rawExports.load(ordering: .relaxed) == before + 1)
    }

    @Test func proxyOfProxyExpandsRecursively() async throws {
        struct Pinned: Transferable {
            var note: Note
            static var transferRepresentations: [TransferRepresentation<Pinned>] {
                [.proxy(exporting: { $0.note }, importing: { Pinned(note: $0) })]
            }
        }
        let pinned = Pinned(note: Note(title: "a", body: "b"))
        #expect(pinned.exportedRepresentations().map(\.contentType) == [Note.noteType, .utf8PlainText, .data])
        #expect(Pinned.importableContentTypes == [Note.noteType, .utf8PlainText, .utf16PlainText, .plainText])
        let imported = try await Pinned.importing(.data(Data("hi".utf8)), contentType: .utf8PlainText)
        #expect(imported.note == Note(title: "hi", body: ""))
    }

    @Test func uRLExportsFileURLOnlyForFileURLs() async throws {
        let file = URL(fileURLWithPath: "/tmp/report.pdf")
        #expect(file.exportedRepresentations().map(\.contentType) == [.fileURL, .url])
        #expect(try await file.exportedRepresentations()[0].bytes() == Data("file:///tmp/report.pdf".utf8))
        let web = try #require(URL(string: "https://example.com/a?b=c"))
        #expect(web.exportedRepresentations().map(\.contentType) == [.url])
        #expect(URL.importableContentTypes == [.url])
    }

    @Test func conditionReachedThroughAProxyIsCheckedWhenExporting() async throws {
        struct Bookmark: Transferable {
            var url: URL
            static var transferRepresentations: [TransferRepresentation<Bookmark>] {
                [.proxy(exporting: { $0.url })]
            }
        }
        let web = Bookmark(url: try #require(URL(string: "https://example.com")))
        let exported = web.exportedRepresentations()
        #expect(exported.map(\.contentType) == [.fileURL, .url])
        let error = await transferError { try await exported[0].bytes() }
        #expect(error?.description == "this value cannot be exported as public.file-url")
        #expect(try await exported[1].bytes() == Data("https://example.com".utf8))
    }

    @Test func fileExporterIsExportedAsAFile() async throws {
        struct Report: Transferable {
            var path: String
            static var transferRepresentations: [TransferRepresentation<Report>] {
                [.file(contentType: .pdf, exporting: { URL(fileURLWithPath: $0.path) })]
            }
        }
        let exported = Report(path: "/tmp/r.pdf").exportedRepresentations()
        #expect(exported.map(\.contentType) == [.pdf])
        guard case .file(let export) = exported[0].kind else { Issue.record("expected a file representation"); return }
        #expect(try await export().path == "/tmp/r.pdf")
        #expect(Report.importableContentTypes == [])
    }
}
