/// What a model file says about itself (ONNX's model-level fields and custom metadata map).
public struct ModelMetadata: Sendable, Equatable {
    public var producerName: String
    public var graphName: String
    public var graphDescription: String
    public var domain: String
    public var description: String
    public var version: Int64
    /// The model's `metadata_props`: free-form key/value pairs (sample rates, speaker maps, ...).
    public var custom: [String: String]

    public init(producerName: String = "", graphName: String = "", graphDescription: String = "", domain: String = "",
                description: String = "", version: Int64 = 0, custom: [String: String] = [:]) {
        self.producerName = producerName
        self.graphName = graphName
        self.graphDescription = graphDescription
        self.domain = domain
        self.description = description
        self.version = version
        self.custom = custom
    }
}

extension ModelMetadata {
    /// Reads the metadata of an open session.
    static func read(session: OpaquePointer, api: ORTAPI) throws -> ModelMetadata {
        var raw: OpaquePointer?
        try api.check(api.f.SessionGetModelMetadata(session, &raw), "SessionGetModelMetadata")
        guard let meta = raw else { return ModelMetadata() }
        defer { api.f.ReleaseModelMetadata(meta) }
        let allocator = try api.defaultAllocator()

        func string(_ get: (OpaquePointer, OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> OpaquePointer?)
            throws -> String
        {
            var value: UnsafeMutablePointer<CChar>?
            try api.check(get(meta, allocator, &value), "reading model metadata")
            return api.takeString(value, allocator: allocator)
        }

        var result = ModelMetadata()
        result.producerName = try string(api.f.ModelMetadataGetProducerName)
        result.graphName = try string(api.f.ModelMetadataGetGraphName)
        result.graphDescription = try string(api.f.ModelMetadataGetGraphDescription)
        result.domain = try string(api.f.ModelMetadataGetDomain)
        result.description = try string(api.f.ModelMetadataGetDescription)
        try api.check(api.f.ModelMetadataGetVersion(meta, &result.version), "ModelMetadataGetVersion")

        var keys: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var count: Int64 = 0
        try api.check(api.f.ModelMetadataGetCustomMetadataMapKeys(meta, allocator, &keys, &count), "metadata keys")
        if let keys {
            defer { _ = api.f.AllocatorFree(allocator, keys) }
            for index in 0..<Int(count) {
                let key = api.takeString(keys[index], allocator: allocator)
                var value: UnsafeMutablePointer<CChar>?
                try key.withCString { k in
                    try api.check(api.f.ModelMetadataLookupCustomMetadataMap(meta, allocator, k, &value), "metadata \(key)")
                }
                result.custom[key] = api.takeString(value, allocator: allocator)
            }
        }
        return result
    }
}
