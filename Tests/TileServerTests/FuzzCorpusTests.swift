// The fuzz corpus (Fuzz/corpus/TARGET/*) replayed through the checks the libFuzzer harnesses
// run (FuzzChecks), in every `swift test`: a seed or a minimized crash kept there stays a test
// without a fuzzing build.

import Foundation
import FuzzChecks
import Testing

@Suite struct FuzzCorpusTests {
    static let corpus = Fixtures.packageRoot + "/Fuzz/corpus"

    @Test(arguments: FuzzChecks.targets.keys.sorted())
    func everyInputOfTheCorpusPassesItsTargetsCheck(target: String) throws {
        let check = try #require(FuzzChecks.targets[target])
        let folder = Self.corpus + "/" + target
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.isEmpty, "no inputs in \(folder)")
        for name in names {
            let bytes = Array(try #require(FileManager.default.contents(atPath: folder + "/" + name), "\(name) unreadable"))
            let failure = check(bytes)
            #expect(failure == nil, "Fuzz/corpus/\(target)/\(name): \(failure ?? "")")
        }
    }

    /// Every corpus folder has a target, and every target a corpus folder.
    @Test func theCorpusFoldersAreTheTargets() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus).sorted()
        #expect(folders == FuzzChecks.targets.keys.sorted())
    }
}
