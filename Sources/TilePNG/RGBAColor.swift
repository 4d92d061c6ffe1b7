/// One RGBA8 pixel with straight (non-premultiplied) alpha.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// A colour from its four channels; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Fully transparent black (all bytes 0).
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque red.
    public static let red = RGBAColor(red: 255, green: 0, blue: 0)
    /// Opaque green.
    public static let green = RGBAColor(red: 0, green: 255, blue: 0)
    /// Opaque blue.
    public static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    /// `rgba(r,g,b,a)`, for test failures and logs.
    public var description: String { "rgba(\(red),\(green),\(blue),\(alpha))" }
}
