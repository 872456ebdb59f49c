/// `import Pasteboard` is all an app writes: the type identifiers, declarations and registry its
/// API speaks in come with it (as NIOPosix brings NIOCore).
@_exported public import PasteboardTypes
