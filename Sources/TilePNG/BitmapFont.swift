/// A built-in 5×7 bitmap font for debug tiles: digits, letters a-z (upper case
/// input draws the same glyphs), space and `/ @ . - : ?`. Unknown characters draw as `?`.
public enum BitmapFont {
    /// Glyph width in font pixels.
    public static let glyphWidth = 5
    /// Glyph height in font pixels.
    public static let glyphHeight = 7
    /// Horizontal distance between glyph origins (one blank column between glyphs).
    public static let advance = 6

    /// Width in image pixels of `text` drawn at `scale` (no trailing gap).
    public static func width(of text: String, scale: Int = 1) -> Int {
        let count = text.count
        return count == 0 ? 0 : ((count - 1) * advance + glyphWidth) * max(scale, 1)
    }

    /// Whether the glyph for `character` has its font pixel (column, row) set.
    public static func isSet(_ character: Character, column: Int, row: Int) -> Bool {
        guard (0..<glyphWidth).contains(column), (0..<glyphHeight).contains(row) else { return false }
        return glyph(for: character)[row] & (1 << (glyphWidth - 1 - column)) != 0
    }

    /// The 7 row masks for `character`, case-folded, `?` when unknown.
    static func glyph(for character: Character) -> [UInt8] {
        let folded = character.lowercased()
        let key: Character = folded.count == 1 ? Character(folded) : "?"
        return glyphs[key] ?? glyphs["?"] ?? [UInt8](repeating: 0, count: glyphHeight)
    }

    /// Characters with a glyph of their own.
    public static var supportedCharacters: Set<Character> { Set(glyphs.keys) }

    /// Each glyph as 7 rows of 5 bits, most significant bit = left column.
    private static let glyphs: [Character: [UInt8]] = {
        var table: [Character: [UInt8]] = [:]
        for (character, art) in artwork {
            table[character] = art.split(separator: " ").map { row in
                row.reduce(UInt8(0)) { bits, cell in (bits << 1) | (cell == "#" ? 1 : 0) }
            }
        }
        return table
    }()

    /// Glyph artwork: seven rows of five cells, `#` = ink.
    private static let artwork: [(Character, String)] = [
        ("0", ".###. #...# #..## #.#.# ##..# #...# .###."),
        ("1", "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###."),
        ("2", ".###. #...# ....# ...#. ..#.. .#... #####"),
        ("3", "##### ...#. ..#.. ...#. ....# #...# .###."),
        ("4", "...#. ..##. .#.#. #..#. ##### ...#. ...#."),
        ("5", "##### #.... ####. ....# ....# #...# .###."),
        ("6", "..##. .#... #.... ####. #...# #...# .###."),
        ("7", "##### ....# ...#. ..#.. .#... .#... .#..."),
        ("8", ".###. #...# #...# .###. #...# #...# .###."),
        ("9", ".###. #...# #...# .#### ....# ...#. .##.."),
        ("a", "..... ..... .###. ....# .#### #...# .####"),
        ("b", "#.... #.... #.##. ##..# #...# #...# ####."),
        ("c", "..... ..... .###. #.... #.... #...# .###."),
        ("d", "....# ....# .##.# #..## #...# #...# .####"),
        ("e", "..... ..... .###. #...# ##### #.... .###."),
        ("f", "..##. .#..# .#... ###.. .#... .#... .#..."),
        ("g", "..... .#### #...# #...# .#### ....# .###."),
        ("h", "#.... #.... #.##. ##..# #...# #...# #...#"),
        ("i", "..#.. ..... .##.. ..#.. ..#.. ..#.. .###."),
        ("j", "...#. ..... ..##. ...#. ...#. #..#. .##.."),
        ("k", "#.... #.... #..#. #.#.. ##... #.#.. #..#."),
        ("l", ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###."),
        ("m", "..... ..... ##.#. #.#.# #.#.# #...# #...#"),
        ("n", "..... ..... #.##. ##..# #...# #...# #...#"),
        ("o", "..... ..... .###. #...# #...# #...# .###."),
        ("p", "..... ..... ####. #...# ####. #.... #...."),
        ("q", "..... ..... .##.# #..## .#### ....# ....#"),
        ("r", "..... ..... #.##. ##..# #.... #.... #...."),
        ("s", "..... ..... .###. #.... .###. ....# ####."),
        ("t", ".#... .#... ###.. .#... .#... .#..# ..##."),
        ("u", "..... ..... #...# #...# #...# #..## .##.#"),
        ("v", "..... ..... #...# #...# #...# .#.#. ..#.."),
        ("w", "..... ..... #...# #...# #.#.# #.#.# .#.#."),
        ("x", "..... ..... #...# .#.#. ..#.. .#.#. #...#"),
        ("y", "..... ..... #...# #...# .#### ....# .###."),
        ("z", "..... ..... ##### ...#. ..#.. .#... #####"),
        (" ", "..... ..... ..... ..... ..... ..... ....."),
        ("/", "..... ....# ...#. ..#.. .#... #.... ....."),
        ("@", ".###. #...# ....# .##.# #.#.# #.#.# .###."),
        (".", "..... ..... ..... ..... ..... .##.. .##.."),
        ("-", "..... ..... ..... ##### ..... ..... ....."),
        (":", "..... .##.. .##.. ..... .##.. .##.. ....."),
        ("?", ".###. #...# ....# ...#. ..#.. ..... ..#.."),
    ]
}
