import TileCache

extension ServiceCore {
    /// Checks the files behind `layer` again, then drops its cached tiles for which `matches`
    /// holds (all when nil), and those of the composites over it in `state`. Blocking file I/O
    /// (`TilePipeline.clear`).
    func clear(
        _ layer: Layer, where matches: (@Sendable (TileKey) -> Bool)?, in state: ServiceState
    ) -> Result<Int?, CacheError> {
        // The files behind the layer are checked now (an archive replaced a moment ago is
        // reopened), so the very next request reads what is on disk (SPEC "Freshness").
        layer.recheckSources()
        return pipeline.clear(layer: layer, where: matches, dependents: state.layers.composites(over: layer.name))
    }
}
