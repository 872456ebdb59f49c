/// The built-in type declarations, so binaries work without any installed file.
enum BuiltInTypes {
    // Generated from Config/types.json: BuiltInTypesTests fails when they differ, and writes the
    // regenerated file (its message says where). Swift values rather than the JSON text, so that
    // a short-lived command does not parse JSON before its first request.
    static let declarations: [TypeDeclaration] = [
        TypeDeclaration(identifier: "public.item", conformsTo: [], description: "Base type for everything on a pasteboard"),
        TypeDeclaration(identifier: "public.data", conformsTo: ["public.item"], description: "Any stream of bytes"),
        TypeDeclaration(identifier: "public.content", conformsTo: ["public.item"], description: "Base type for documents and media"),
        TypeDeclaration(identifier: "public.text", conformsTo: ["public.data", "public.content"], description: "Text"),
        TypeDeclaration(identifier: "public.plain-text", conformsTo: ["public.text"], mimeTypes: ["text/plain"], filenameExtensions: ["txt", "text"], description: "Plain text"),
        TypeDeclaration(identifier: "public.utf8-plain-text", conformsTo: ["public.plain-text"], mimeTypes: ["text/plain;charset=utf-8"], description: "UTF-8 plain text"),
        TypeDeclaration(identifier: "public.utf16-plain-text", conformsTo: ["public.plain-text"], mimeTypes: ["text/plain;charset=utf-16"], description: "UTF-16 plain text"),
        TypeDeclaration(identifier: "public.html", conformsTo: ["public.text"], mimeTypes: ["text/html"], filenameExtensions: ["html", "htm"], description: "HTML"),
        TypeDeclaration(identifier: "public.xml", conformsTo: ["public.text"], mimeTypes: ["application/xml", "text/xml"], filenameExtensions: ["xml"], description: "XML"),
        TypeDeclaration(identifier: "public.json", conformsTo: ["public.text"], mimeTypes: ["application/json"], filenameExtensions: ["json"], description: "JSON"),
        TypeDeclaration(identifier: "public.url", conformsTo: ["public.data"], mimeTypes: ["text/uri-list"], description: "URL list"),
        TypeDeclaration(identifier: "public.file-url", conformsTo: ["public.url"], description: "URL of a local file"),
        TypeDeclaration(identifier: "public.image", conformsTo: ["public.data", "public.content"], description: "Image"),
        TypeDeclaration(identifier: "public.png", conformsTo: ["public.image"], mimeTypes: ["image/png"], filenameExtensions: ["png"], magic: [MagicPattern(offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], description: "PNG image"),
        TypeDeclaration(identifier: "public.jpeg", conformsTo: ["public.image"], mimeTypes: ["image/jpeg"], filenameExtensions: ["jpg", "jpeg", "jpe"], magic: [MagicPattern(offset: 0, bytes: [0xff, 0xd8, 0xff])], description: "JPEG image"),
        TypeDeclaration(identifier: "public.gif", conformsTo: ["public.image"], mimeTypes: ["image/gif"], filenameExtensions: ["gif"], magic: [MagicPattern(offset: 0, bytes: [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]), MagicPattern(offset: 0, bytes: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])], description: "GIF image"),
        TypeDeclaration(identifier: "public.webp", conformsTo: ["public.image"], mimeTypes: ["image/webp"], filenameExtensions: ["webp"], magic: [MagicPattern(offset: 8, bytes: [0x57, 0x45, 0x42, 0x50])], description: "WebP image"),
        TypeDeclaration(identifier: "public.svg-image", conformsTo: ["public.image", "public.xml"], mimeTypes: ["image/svg+xml"], filenameExtensions: ["svg"], description: "SVG image"),
        TypeDeclaration(identifier: "public.pdf", conformsTo: ["public.data", "public.content"], mimeTypes: ["application/pdf"], filenameExtensions: ["pdf"], magic: [MagicPattern(offset: 0, bytes: [0x25, 0x50, 0x44, 0x46, 0x2d])], description: "PDF document"),
        TypeDeclaration(identifier: "public.zip-archive", conformsTo: ["public.data"], mimeTypes: ["application/zip"], filenameExtensions: ["zip"], magic: [MagicPattern(offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04]), MagicPattern(offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06])], description: "ZIP archive"),
        TypeDeclaration(identifier: "public.audio", conformsTo: ["public.data", "public.content"], description: "Audio"),
        TypeDeclaration(identifier: "public.mp3", conformsTo: ["public.audio"], mimeTypes: ["audio/mpeg"], filenameExtensions: ["mp3"], magic: [MagicPattern(offset: 0, bytes: [0x49, 0x44, 0x33])], description: "MP3 audio"),
        TypeDeclaration(identifier: "public.movie", conformsTo: ["public.data", "public.content"], description: "Video"),
        TypeDeclaration(identifier: "public.mpeg-4", conformsTo: ["public.movie"], mimeTypes: ["video/mp4"], filenameExtensions: ["mp4"], description: "MPEG-4 video"),
        TypeDeclaration(identifier: "org.nspasteboard.ConcealedType", conformsTo: ["public.data"], description: "Marker: the item is a secret (nspasteboard.org); kept in memory only, never in history"),
        TypeDeclaration(identifier: "org.kde.password-manager-hint", conformsTo: ["public.data"], mimeTypes: ["x-kde-passwordManagerHint"], description: "KDE's password-manager hint: the value secret marks the item a secret"),
    ]
}
