import Testing
import TileGeometry
@testable import TileProviders

@Suite struct URLTemplateTests {
    let floor = try! URLTemplateVariable(name: "floor", allowedValues: ["1", "2", "3"], defaultValue: "1")

    @Test(arguments: [
        ("https://t/{z}/{x}/{y}.png", TileCoordinate(z: 3, x: 4, y: 2), "https://t/3/4/2.png"),
        ("https://t/{z}/{x}/{-y}.png", TileCoordinate(z: 3, x: 4, y: 2), "https://t/3/4/5.png"),
        ("https://t/{z}/{x}/{-y}.png", TileCoordinate(z: 0, x: 0, y: 0), "https://t/0/0/0.png"),
        ("https://t/q/{q}.png", TileCoordinate(z: 3, x: 3, y: 5), "https://t/q/213.png"),
        ("https://t/q/{q}.png", TileCoordinate(z: 1, x: 1, y: 1), "https://t/q/3.png"),
        ("https://t/{z}-{x}-{y}", TileCoordinate(z: 10, x: 1023, y: 0), "https://t/10-1023-0"),
    ])
    func placeholders(_ text: String, _ tile: TileCoordinate, _ expected: String) throws {
        let template = try URLTemplate(text)
        #expect(template.url(for: TileRequest(tile: tile)) == expected)
    }

    @Test func namedVariablesTakeTheRequestValueOrTheDefault() throws {
        let template = try URLTemplate("file:///plans/L{floor}_{z}_{x}_{y}.png", variables: [floor])
        let tile = TileCoordinate(z: 17, x: 65488, y: 43577)
        #expect(template.url(for: TileRequest(tile: tile, variables: ["floor": "2"])) == "file:///plans/L2_17_65488_43577.png")
        #expect(template.url(for: TileRequest(tile: tile)) == "file:///plans/L1_17_65488_43577.png")
    }

    @Test func subdomainIsAStableHashOfTheTileAndSpreads() throws {
        let template = try URLTemplate("https://{s}.t/{z}/{x}/{y}.png", subdomains: ["a", "b", "c"])
        var seen: [String: Int] = [:]
        for x in 0 ..< 16 {
            for y in 0 ..< 16 {
                let request = TileRequest(tile: TileCoordinate(z: 4, x: x, y: y))
                let url = template.url(for: request)
                #expect(url == template.url(for: request))  // the same tile, the same host
                seen[String(url.dropFirst(8).prefix(1)), default: 0] += 1
            }
        }
        #expect(Set(seen.keys) == ["a", "b", "c"])
        #expect(seen.values.allSatisfy { $0 > 50 })  // 256 tiles, roughly a third each
    }

    @Test(arguments: [
        ("https://t/{x}/{y}.png", "no {z}"),
        ("https://t/{z}/{y}.png", "no {x}"),
        ("https://t/{z}/{x}.png", "no {y}"),
        ("https://t/{z}/{x}/{y", "unclosed"),
        ("https://t/{z}/{x}/{y}/{room}.png", "unknown placeholder {room}"),
        ("https://{s}.t/{z}/{x}/{y}.png", "no subdomains"),
    ])
    func invalidTemplatesSayWhy(_ text: String, _ fragment: String) {
        #expect {
            _ = try URLTemplate(text)
        } throws: { error in
            (error as? TileProviderError)?.description.contains(fragment) == true
        }
    }

    @Test func quadkeyAloneLocatesATile() throws {
        _ = try URLTemplate("https://t/{q}")
    }

    @Test func variablesRefuseUnsafeValues() throws {
        #expect(floor.allows("2"))
        #expect(!floor.allows("4"))
        let free = try URLTemplateVariable(name: "style", defaultValue: "day")
        #expect(free.allows("night-2"))
        for value in ["..", "a/b", "%2e%2e", "", "a.b", "x y", String(repeating: "a", count: 65)] {
            #expect(!free.allows(value), "\(value)")
        }
        #expect(throws: TileProviderError.self) { try URLTemplateVariable(name: "f", allowedValues: ["1", "../x"], defaultValue: "1") }
        #expect(throws: TileProviderError.self) { try URLTemplateVariable(name: "f", allowedValues: ["1"], defaultValue: "2") }
    }

    @Test func fileTemplatesMustBeAbsoluteWithoutDotDot() throws {
        #expect(throws: TileProviderError.self) { try FileTemplateTileProvider(template: URLTemplate("file://rel/{z}/{x}/{y}.png")) }
        #expect(throws: TileProviderError.self) { try FileTemplateTileProvider(template: URLTemplate("file:///a/../{z}/{x}/{y}.png")) }
        _ = try FileTemplateTileProvider(template: URLTemplate("file:///a/{z}/{x}/{y}.png"))
    }
}
