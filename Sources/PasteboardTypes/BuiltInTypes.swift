/// The built-in type declarations, so binaries work without any installed file.
enum BuiltInTypes {
    // Mirrors Config/types.json byte for byte; BuiltInTypesTests fails (and says how to regenerate) when they differ.
    static let json = #"""
{
  "types": [
    {"identifier": "public.item", "conformsTo": [],
     "description": "Base type for everything on a pasteboard"},
    {"identifier": "public.data", "conformsTo": ["public.item"],
     "description": "Any stream of bytes"},
    {"identifier": "public.content", "conformsTo": ["public.item"],
     "description": "Base type for documents and media"},

    {"identifier": "public.text", "conformsTo": ["public.data", "public.content"],
     "description": "Text"},
    {"identifier": "public.plain-text", "conformsTo": ["public.text"],
     "mimeTypes": ["text/plain"], "filenameExtensions": ["txt", "text"],
     "description": "Plain text"},
    {"identifier": "public.utf8-plain-text", "conformsTo": ["public.plain-text"],
     "mimeTypes": ["text/plain;charset=utf-8"],
     "description": "UTF-8 plain text"},
    {"identifier": "public.utf16-plain-text", "conformsTo": ["public.plain-text"],
     "mimeTypes": ["text/plain;charset=utf-16"],
     "description": "UTF-16 plain text"},
    {"identifier": "public.html", "conformsTo": ["public.text"],
     "mimeTypes": ["text/html"], "filenameExtensions": ["html", "htm"],
     "description": "HTML"},
    {"identifier": "public.xml", "conformsTo": ["public.text"],
     "mimeTypes": ["application/xml", "text/xml"], "filenameExtensions": ["xml"],
     "description": "XML"},
    {"identifier": "public.json", "conformsTo": ["public.text"],
     "mimeTypes": ["application/json"], "filenameExtensions": ["json"],
     "description": "JSON"},

    {"identifier": "public.url", "conformsTo": ["public.data"],
     "mimeTypes": ["text/uri-list"],
     "description": "URL list"},
    {"identifier": "public.file-url", "conformsTo": ["public.url"],
     "description": "URL of a local file"},

    {"identifier": "public.image", "conformsTo": ["public.data", "public.content"],
     "description": "Image"},
    {"identifier": "public.png", "conformsTo": ["public.image"],
     "mimeTypes": ["image/png"], "filenameExtensions": ["png"],
     "magic": [{"offset": 0, "bytes": "89504e470d0a1a0a"}],
     "description": "PNG image"},
    {"identifier": "public.jpeg", "conformsTo": ["public.image"],
     "mimeTypes": ["image/jpeg"], "filenameExtensions": ["jpg", "jpeg", "jpe"],
     "magic": [{"offset": 0, "bytes": "ffd8ff"}],
     "description": "JPEG image"},
    {"identifier": "public.gif", "conformsTo": ["public.image"],
     "mimeTypes": ["image/gif"], "filenameExtensions": ["gif"],
     "magic": [{"offset": 0, "bytes": "474946383761"}, {"offset": 0, "bytes": "474946383961"}],
     "description": "GIF image"},
    {"identifier": "public.webp", "conformsTo": ["public.image"],
     "mimeTypes": ["image/webp"], "filenameExtensions": ["webp"],
     "magic": [{"offset": 8, "bytes": "57454250"}],
     "description": "WebP image"},
    {"identifier": "public.svg-image", "conformsTo": ["public.image", "public.xml"],
     "mimeTypes": ["image/svg+xml"], "filenameExtensions": ["svg"],
     "description": "SVG image"},

    {"identifier": "public.pdf", "conformsTo": ["public.data", "public.content"],
     "mimeTypes": ["application/pdf"], "filenameExtensions": ["pdf"],
     "magic": [{"offset": 0, "bytes": "255044462d"}],
     "description": "PDF document"},
    {"identifier": "public.zip-archive", "conformsTo": ["public.data"],
     "mimeTypes": ["application/zip"], "filenameExtensions": ["zip"],
     "magic": [{"offset": 0, "bytes": "504b0304"}, {"offset": 0, "bytes": "504b0506"}],
     "description": "ZIP archive"},

    {"identifier": "public.audio", "conformsTo": ["public.data", "public.content"],
     "description": "Audio"},
    {"identifier": "public.mp3", "conformsTo": ["public.audio"],
     "mimeTypes": ["audio/mpeg"], "filenameExtensions": ["mp3"],
     "magic": [{"offset": 0, "bytes": "494433"}],
     "description": "MP3 audio"},
    {"identifier": "public.movie", "conformsTo": ["public.data", "public.content"],
     "description": "Video"},
    {"identifier": "public.mpeg-4", "conformsTo": ["public.movie"],
     "mimeTypes": ["video/mp4"], "filenameExtensions": ["mp4"],
     "description": "MPEG-4 video"}
  ]
}

"""#
}
