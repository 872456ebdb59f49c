/// The two data-control protocols that let a client that has no surface (a clipboard manager,
/// our bridge) read and own the selection: the standard `ext-data-control-v1` (wayland-protocols
/// staging) and its wlroots predecessor `zwlr-data-control-unstable-v1`.
///
/// Their messages are the same, in the same order; what differs is the interface names, and
/// that wlr has the primary selection only from version 2. Everything protocol-specific is here.
public enum DataControlProtocol: String, Sendable, CaseIterable {
    case ext = "ext-data-control-v1"
    case wlr = "zwlr-data-control-unstable-v1"

    /// Which to use given the advertised globals: ext where offered, else wlr.
    public static let preferenceOrder: [DataControlProtocol] = [.ext, .wlr]

    public var managerInterface: String {
        switch self {
        case .ext: "ext_data_control_manager_v1"
        case .wlr: "zwlr_data_control_manager_v1"
        }
    }

    public var deviceInterface: String {
        switch self {
        case .ext: "ext_data_control_device_v1"
        case .wlr: "zwlr_data_control_device_v1"
        }
    }

    public var offerInterface: String {
        switch self {
        case .ext: "ext_data_control_offer_v1"
        case .wlr: "zwlr_data_control_offer_v1"
        }
    }

    public var sourceInterface: String {
        switch self {
        case .ext: "ext_data_control_source_v1"
        case .wlr: "zwlr_data_control_source_v1"
        }
    }

    /// The highest manager version this client knows (the XML's).
    public var maxVersion: UInt32 {
        switch self {
        case .ext: 1
        case .wlr: 2
        }
    }

    /// Whether the device sends `primary_selection` at the bound version.
    public func hasPrimarySelection(version: UInt32) -> Bool {
        switch self {
        case .ext: true
        case .wlr: version >= 2
        }
    }

    /// The opcodes, per protocol so that a future divergence touches only this property.
    var opcodes: DataControlOpcodes {
        switch self {
        case .ext: .ext
        case .wlr: .wlr
        }
    }
}

/// Requests and events of the four data-control interfaces, numbered in their XML's order.
struct DataControlOpcodes {
    // manager requests
    var createDataSource: UInt16
    var getDataDevice: UInt16
    var managerDestroy: UInt16
    // device requests and events
    var setSelection: UInt16
    var deviceDestroy: UInt16
    var setPrimarySelection: UInt16
    var dataOfferEvent: UInt16
    var selectionEvent: UInt16
    var finishedEvent: UInt16
    var primarySelectionEvent: UInt16
    // source requests and events
    var sourceOffer: UInt16
    var sourceDestroy: UInt16
    var sendEvent: UInt16
    var cancelledEvent: UInt16
    // offer requests and events
    var receive: UInt16
    var offerDestroy: UInt16
    var offerEvent: UInt16

    /// ext-data-control-v1.xml.
    static let ext = DataControlOpcodes(
        createDataSource: 0, getDataDevice: 1, managerDestroy: 2,
        setSelection: 0, deviceDestroy: 1, setPrimarySelection: 2,
        dataOfferEvent: 0, selectionEvent: 1, finishedEvent: 2, primarySelectionEvent: 3,
        sourceOffer: 0, sourceDestroy: 1, sendEvent: 0, cancelledEvent: 1,
        receive: 0, offerDestroy: 1, offerEvent: 0
    )

    /// wlr-data-control-unstable-v1.xml (version 2): the same numbering.
    static let wlr = ext
}
