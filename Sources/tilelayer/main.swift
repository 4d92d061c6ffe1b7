import TileLayerCLI

TileLayerCommand.main()
