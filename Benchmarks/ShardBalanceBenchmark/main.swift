import Harness

// Shard balance of `harness run --shard I/N`: the hash split against `--durations` (longest
// first into the lightest shard), on synthetic suites with skewed durations. Prints, for each
// shard count, the longest shard's total over the mean (1.00 is a perfect split) and the wall
// time of the run (the longest shard) against the ideal. Deterministic: a fixed generator.
//
//   swift run ShardBalanceBenchmark [FLOWS]

let flowCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 240

var state: UInt64 = 0x2545_F491_4F6C_DD1D
@MainActor func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
}
// Most flows take 1-3 s, one in ten 20-60 s, one in fifty 2-5 minutes.
var durations: [String: Double] = [:]
for flow in 0..<flowCount {
    let roll = next()
    let seconds = roll < 0.02 ? 120 + 180 * next() : roll < 0.12 ? 20 + 40 * next() : 1 + 2 * next()
    durations["suite/area-\(flow % 7)/flow-\(flow).flow"] = seconds
}
let total = durations.values.reduce(0, +)
let longest = durations.values.max() ?? 0

@MainActor func loads(_ count: Int, _ shard: (String) -> Int) -> [Double] {
    var loads = [Double](repeating: 0, count: count)
    for (path, seconds) in durations { loads[shard(path) - 1] += seconds }
    return loads
}

print("\(flowCount) flows, \(Int(total)) s in all, the longest \(Int(longest)) s")
print("shards  hash max/mean  balanced max/mean  hash wall  balanced wall  ideal wall  hash/balanced")
for count in [2, 4, 8, 16] {
    let hashed = loads(count) { FlowShard.shardIndex(of: $0, count: count) }
    let plan = FlowShardPlan(flows: Array(durations.keys), count: count, durations: durations)
    let balanced = loads(count) { plan.shard(of: $0) }
    let mean = total / Double(count)
    let ideal = max(mean, longest)
    func fmt(_ value: Double, _ width: Int, _ digits: Int = 2) -> String {
        var text = String(Int((value * pow10(digits)).rounded()))
        while text.count <= digits { text = "0" + text }
        if digits > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -digits)) }
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
    print(fmt(Double(count), 6, 0), fmt(hashed.max()! / mean, 14), fmt(balanced.max()! / mean, 18),
          fmt(hashed.max()!, 9, 0) + "s", fmt(balanced.max()!, 13, 0) + "s", fmt(ideal, 10, 0) + "s",
          fmt(hashed.max()! / balanced.max()!, 13) + "x")
}

func pow10(_ digits: Int) -> Double { (0..<digits).reduce(1) { value, _ in value * 10 } }
