// TileCache: a generic, byte-bounded cache that knows nothing of HTTP.
