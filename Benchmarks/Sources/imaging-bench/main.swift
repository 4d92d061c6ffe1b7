// imaging-bench: derived @2x tiles per second with TilePNG, in-process (no HTTP).
//
// For every tile (z, x, y) of the chosen zooms it decodes the four children at z+1 from bytes
// already in memory, places them 2×2 into one 512×512 image and encodes that as PNG: the work
// of an @2x tile derived from the next zoom. scripts/bench/pillow_imaging.py does the same with
// Pillow; scripts/bench-imaging.sh runs both in turns.
//
//   imaging-bench DATA_DIR [--zooms 3,4] [--rounds 1] [--warmup 8] [--threads 1]
//                 [--level 6] [--filter adaptive] [--phases] [--dump DIR]
//   imaging-bench DATA_DIR --sweep [--levels 1,2,...] [--filters up,adaptive,...] [--zooms ...]
//
// Output: one `RESULT key=value ...` line per timed round (and per setting with --sweep),
// so scripts can read it; everything else goes to standard error.
import Foundation
import Synchronization
import TilePNG

struct Job {
    let z: Int, x: Int, y: Int
    /// NW, NE, SW, SE children at z+1, as PNG bytes.
    let children: [[UInt8]]
}

struct Options {
    var dataDir = ""
    var zooms = [3, 4]
    var rounds = 1
    var warmup = 8
    var threads = 1
    var level = PNGEncoder.defaultCompressionLevel
    var filter = PNGEncoder.defaultFilter
    var phases = false
    var dump: String?
    var sweep = false
    var levels = Array(1...9)
    var filters: [PNGEncoder.Filter] = PNGEncoder.Filter.allCases
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("imaging-bench: \(message)\n".utf8))
    exit(2)
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func parseFilter(_ text: String) -> PNGEncoder.Filter {
    switch text {
    case "none": .none
    case "sub": .sub
    case "up": .up
    case "average", "avg": .average
    case "paeth": .paeth
    case "adaptive", "all": .adaptive
    default: fail("unknown filter '\(text)' (none, sub, up, average, paeth, adaptive)")
    }
}

func parseInts(_ text: String, _ name: String) -> [Int] {
    let values = text.split(separator: ",").map { Int($0) }
    guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else { fail("\(name) takes whole numbers, comma-separated") }
    return values.map { $0! }
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value(_ flag: String) -> String {
        guard !arguments.isEmpty else { fail("\(flag) needs a value") }
        return arguments.removeFirst()
    }
    var positional: [String] = []
    while !arguments.isEmpty {
        let argument = arguments.removeFirst()
        switch argument {
        case "--zooms": options.zooms = parseInts(value(argument), argument)
        case "--rounds": options.rounds = parseInts(value(argument), argument)[0]
        case "--warmup": options.warmup = parseInts(value(argument), argument)[0]
        case "--threads": options.threads = parseInts(value(argument), argument)[0]
        case "--level": options.level = parseInts(value(argument), argument)[0]
        case "--filter": options.filter = parseFilter(value(argument))
        case "--phases": options.phases = true
        case "--dump": options.dump = value(argument)
        case "--sweep": options.sweep = true
        case "--levels": options.levels = parseInts(value(argument), argument)
        case "--filters": options.filters = value(argument).split(separator: ",").map { parseFilter(String($0)) }
        case "-h", "--help":
            print("usage: imaging-bench DATA_DIR [--zooms 3,4] [--rounds N] [--warmup N] [--threads N] "
                + "[--level 0-9] [--filter F] [--phases] [--dump DIR] | --sweep [--levels L,..] [--filters F,..]")
            exit(0)
        default:
            if argument.hasPrefix("--") { fail("unknown option \(argument)") }
            positional.append(argument)
        }
    }
    guard positional.count == 1 else { fail("give exactly one data folder (e.g. ../shared/data/world)") }
    options.dataDir = positional[0]
    guard options.rounds >= 1, options.threads >= 1, options.warmup >= 0 else {
        fail("--rounds and --threads must be at least 1, --warmup at least 0")
    }
    return options
}

/// Every tile of `zooms`, with its four children read into memory (so disk I/O is not timed).
func loadJobs(_ options: Options) -> [Job] {
    var jobs: [Job] = []
    for z in options.zooms {
        let side = 1 << z
        for x in 0..<side {
            for y in 0..<side {
                let children = [(0, 0), (1, 0), (0, 1), (1, 1)].map { dx, dy -> [UInt8] in
                    let path = "\(options.dataDir)/\(z + 1)/\(2 * x + dx)/\(2 * y + dy).png"
                    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
                    return [UInt8](data)
                }
                jobs.append(Job(z: z, x: x, y: y, children: children))
            }
        }
    }
    guard !jobs.isEmpty else { fail("no tiles for zooms \(options.zooms)") }
    return jobs
}

/// Decode the four children, compose 2×2, encode: one @2x tile. Returns the PNG.
@inline(never)
func derive(_ job: Job, encoder: PNGEncoder) throws -> [UInt8] {
    let nw = try PNGDecoder.decode(job.children[0])
    let ne = try PNGDecoder.decode(job.children[1])
    let sw = try PNGDecoder.decode(job.children[2])
    let se = try PNGDecoder.decode(job.children[3])
    let mosaic = try RGBAImage.mosaic2x2(nw: nw, ne: ne, sw: sw, se: se)
    return try encoder.encode(mosaic)
}

func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// Runs all jobs on `threads` threads (job i on thread i % threads); returns seconds and total bytes.
func runRound(_ jobs: [Job], encoder: PNGEncoder, threads: Int) -> (seconds: Double, bytes: Int) {
    let clock = ContinuousClock()
    if threads == 1 {
        var bytes = 0
        let start = clock.now
        for job in jobs {
            do { bytes += try derive(job, encoder: encoder).count } catch { fail("z\(job.z)/\(job.x)/\(job.y): \(error)") }
        }
        return (seconds(clock.now - start), bytes)
    }
    let total = Mutex(0)
    let start = clock.now
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
        var bytes = 0
        for index in stride(from: worker, to: jobs.count, by: threads) {
            let job = jobs[index]
            do { bytes += try derive(job, encoder: encoder).count } catch { fail("z\(job.z)/\(job.x)/\(job.y): \(error)") }
        }
        total.withLock { $0 += bytes }
    }
    return (seconds(clock.now - start), total.withLock { $0 })
}

/// Seconds spent in decode, mosaic and encode over all jobs (single thread).
func runPhases(_ jobs: [Job], encoder: PNGEncoder) throws -> (decode: Double, mosaic: Double, encode: Double, bytes: Int) {
    let clock = ContinuousClock()
    var decode = Duration.zero, mosaic = Duration.zero, encode = Duration.zero
    var bytes = 0
    for job in jobs {
        var start = clock.now
        let images = try job.children.map { try PNGDecoder.decode($0) }
        decode += clock.now - start
        start = clock.now
        let image = try RGBAImage.mosaic2x2(nw: images[0], ne: images[1], sw: images[2], se: images[3])
        mosaic += clock.now - start
        start = clock.now
        bytes += try encoder.encode(image).count
        encode += clock.now - start
    }
    return (seconds(decode), seconds(mosaic), seconds(encode), bytes)
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

func filterName(_ filter: PNGEncoder.Filter) -> String {
    switch filter {
    case .none: "none"
    case .sub: "sub"
    case .up: "up"
    case .average: "average"
    case .paeth: "paeth"
    case .adaptive: "adaptive"
    }
}

let options = parseOptions()
let jobs = loadJobs(options)
let inputBytes = jobs.reduce(0) { $0 + $1.children.reduce(0) { $0 + $1.count } }
log("imaging-bench: \(jobs.count) @2x tiles (zooms \(options.zooms.map(String.init).joined(separator: ","))), "
    + "\(jobs.count * 4) children, \(inputBytes) input bytes in memory")

if options.sweep {
    // Encode only (mosaics decoded once up front): bytes and seconds per level × filter.
    let mosaics = jobs.map { job in
        do {
            let images = try job.children.map { try PNGDecoder.decode($0) }
            return try RGBAImage.mosaic2x2(nw: images[0], ne: images[1], sw: images[2], se: images[3])
        } catch { fail("z\(job.z)/\(job.x)/\(job.y): \(error)") }
    }
    let clock = ContinuousClock()
    for level in options.levels {
        for filter in options.filters {
            let encoder = PNGEncoder(compressionLevel: level, filter: filter)
            var bytes = 0
            let start = clock.now
            for mosaic in mosaics {
                do { bytes += try encoder.encode(mosaic).count } catch { fail("\(error)") }
            }
            let elapsed = seconds(clock.now - start)
            print("RESULT impl=sweep level=\(level) filter=\(filterName(filter)) tiles=\(mosaics.count) "
                + "encode_seconds=\(format(elapsed)) ms_per_tile=\(format(elapsed * 1000 / Double(mosaics.count), 2)) bytes=\(bytes)")
            fflush(nil)
        }
    }
    exit(0)
}

let encoder = PNGEncoder(compressionLevel: options.level, filter: options.filter)

if let dump = options.dump {
    do {
        try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
        for job in jobs {
            let png = try derive(job, encoder: encoder)
            try Data(png).write(to: URL(fileURLWithPath: "\(dump)/\(job.z)-\(job.x)-\(job.y).png"))
        }
    } catch { fail("dump: \(error)") }
    log("imaging-bench: wrote \(jobs.count) PNGs to \(dump)")
}

// Warm-up (untimed): the first few tiles, so libpng/zlib code and the allocator are warm.
if options.warmup > 0 {
    _ = runRound(Array(jobs.prefix(options.warmup)), encoder: encoder, threads: 1)
}

for round in 1...options.rounds {
    if options.phases {
        do {
            let phases = try runPhases(jobs, encoder: encoder)
            let total = phases.decode + phases.mosaic + phases.encode
            print("RESULT impl=ours-phases round=\(round) tiles=\(jobs.count) decode_seconds=\(format(phases.decode)) "
                + "mosaic_seconds=\(format(phases.mosaic)) encode_seconds=\(format(phases.encode)) "
                + "seconds=\(format(total)) bytes=\(phases.bytes)")
        } catch { fail("\(error)") }
    } else {
        let result = runRound(jobs, encoder: encoder, threads: options.threads)
        print("RESULT impl=ours threads=\(options.threads) round=\(round) tiles=\(jobs.count) "
            + "level=\(options.level) filter=\(filterName(options.filter)) seconds=\(format(result.seconds)) "
            + "tiles_per_s=\(format(Double(jobs.count) / result.seconds, 2)) bytes=\(result.bytes)")
    }
    fflush(nil)
}
