public import PasteboardTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The gallery app's own type, declared to the daemon when the app connects.
public enum GalleryTypes {
    /// `com.example.gallery.image`: one image's title, URL and aspect ratio, as JSON (`GalleryImageReference`).
    public static let image: TypeIdentifier = "com.example.gallery.image"

    /// The declarations of `Config/gallery-types.json` (embedded below), parsed.
    public static var declarations: [TypeDeclaration] {
        TypeRegistry.parseDeclarationFile(Data(json.utf8), source: "gallery").declarations
    }

    // Mirrors Config/gallery-types.json byte for byte; GalleryTypesTests fails when they differ.
    static let json = #"""
{
  "types": [
    {"identifier": "com.example.gallery.image", "conformsTo": ["public.json"],
     "mimeTypes": ["application/vnd.example.gallery-image+json"],
     "description": "An image of the example gallery app: its title, URL and aspect ratio (JSON)"}
  ]
}

"""#
}
