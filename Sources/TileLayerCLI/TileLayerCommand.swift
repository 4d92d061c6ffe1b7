// TileLayerCLI: the `tilelayer` command line (serve, and the operator commands).

import ArgumentParser

/// `tilelayer`: the root command; `serve` is the default.
public struct TileLayerCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tilelayer",
        abstract: "An HTTP tile server: XYZ tiles, TileJSON and map views from directory, MBTiles, URL and generated sources.",
        subcommands: [ServeCommand.self, SeedCommand.self, TileCommand.self, ClearCacheCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    public init() {}
}
