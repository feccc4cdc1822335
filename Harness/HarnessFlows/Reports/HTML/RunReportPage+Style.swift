import HarnessCore
import HarnessSteps
import TerminalEmulator
extension RunReportPage {
    /// How wide a step's screen thumbnail is drawn, in CSS pixels: 6 per column of an 80-column
    /// screen, so that its text can be read without enlarging it.
    static let thumbnailWidth = 480

    /// The page's style sheet.
    static let style = """
    :root{--ok:#1a7f37;--bad:#cf222e;--flaky:#bf8700;--skip:#6e7781;--line:#d0d7de;--soft:#f6f8fa;--ink:#1f2328;--dim:#656d76;--accent:#0969da}
    *{box-sizing:border-box}[hidden]{display:none!important}
    body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:var(--ink);background:#eef1f4}
    header{background:#fff;border-bottom:1px solid var(--line);padding:18px 28px 12px;position:sticky;top:0;z-index:5}
    .title{display:flex;align-items:baseline;gap:16px;flex-wrap:wrap}h1{font-size:22px;margin:0}.meta{color:var(--dim);margin:0}
    .verdict{font-size:18px;font-weight:600;margin:6px 0 10px}.verdict.ok{color:var(--ok)}.verdict.bad{color:var(--bad)}
    div.incomplete{border:2px solid var(--bad);border-radius:6px;padding:4px 12px;margin:0 0 10px;max-height:30vh;overflow:auto}div.incomplete ul{margin:4px 0;padding-left:20px}
    .filters{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
    .filter{font:inherit;border:1px solid var(--line);background:#fff;border-radius:20px;padding:3px 12px;cursor:pointer;color:var(--ink)}
    .filter b{margin-left:4px}.filter.failed b{color:var(--bad)}.filter.flaky b{color:var(--flaky)}.filter.passed b{color:var(--ok)}.filter.skipped b{color:var(--skip)}
    .filter.on{background:var(--ink);color:#fff;border-color:var(--ink)}.filter.on b{color:#fff}
    #search{font:inherit;flex:0 1 320px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;margin-left:8px}#shown{color:var(--dim)}
    main{padding:18px 28px 60px;max-width:1500px}
    .card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:18px}
    h2{font-size:16px;margin:0 0 8px}h3{font-size:15px;margin:14px 0 8px}
    table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eaeef2;vertical-align:top}
    th{font-weight:600;color:var(--dim);font-size:12px;text-transform:uppercase;letter-spacing:.03em}.num{text-align:right;white-space:nowrap}
    a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
    .badge{display:inline-block;min-width:58px;text-align:center;border-radius:12px;padding:0 8px;color:#fff;font-size:12px;font-weight:600}
    .badge.passed{background:var(--ok)}.badge.failed{background:var(--bad)}.badge.flaky{background:var(--flaky)}.badge.skipped{background:var(--skip)}.badge.interrupted{background:#8250df}
    .flows .why{color:var(--bad);font-size:12.5px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;word-break:break-word}
    .flows tr.skipped .why{color:var(--dim)}.flows tr.passed td{color:#444}
    .flag{display:inline-block;background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c;border-radius:10px;font-size:11.5px;padding:0 7px;font-weight:600}
    .strip{display:inline-flex;align-items:flex-end;gap:2px;height:20px;vertical-align:middle}
    .strip i{display:inline-block;width:7px;border-radius:1px;background:var(--ok)}.strip i.failed{background:var(--bad)}.strip i.flaky{background:var(--flaky)}.strip i.skipped{background:#afb8c1}
    .slowest ol{list-style:none;margin:0;padding:0;columns:2;column-gap:32px}.slowest li{display:flex;gap:8px;align-items:center;padding:2px 0;break-inside:avoid}
    .slowest .time{width:64px;text-align:right;font-variant-numeric:tabular-nums;color:var(--dim)}
    .slowest .bar{flex:0 0 120px;height:8px;background:var(--soft);border-radius:4px;overflow:hidden}.slowest .bar i{display:block;height:100%;background:#8c959f}
    .slowest li.failed .bar i{background:var(--bad)}.slowest li.flaky .bar i{background:var(--flaky)}
    details.flow{background:#fff;border:1px solid var(--line);border-left:5px solid var(--skip);border-radius:8px;margin-bottom:14px;padding:0 16px}
    details.flow.failed{border-left-color:var(--bad)}details.flow.flaky{border-left-color:var(--flaky)}details.flow.passed{border-left-color:var(--ok)}
    details.flow>summary{cursor:pointer;padding:10px 0;font-size:15px;font-weight:600}details.flow[open]>summary{border-bottom:1px solid #eaeef2}
    .dim{color:var(--dim);font-weight:400}.path{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
    .history-line{margin:10px 0 0;color:var(--dim)}
    .failure{border:1px solid #ffcecb;background:#ffebe9;border-radius:6px;padding:8px 12px;margin:8px 0 12px}
    .failure .where{font-weight:600}.problem{margin:4px 0;color:#82071e;font-weight:600;white-space:pre-wrap}
    pre{background:var(--soft);border-radius:6px;padding:8px 10px;overflow:auto;font-size:12.5px;line-height:1.35;margin:6px 0;max-height:420px}
    pre .add{color:#116329;background:#dafbe1}pre .del{color:#82071e;background:#ffebe9}pre .hunk{color:var(--dim)}
    code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}
    .trace{display:grid;grid-template-columns:minmax(0,1fr) 380px;gap:16px;align-items:start}.trace.no-replay{grid-template-columns:minmax(0,1fr)}
    .timeline{table-layout:fixed}.timeline td{padding:3px 6px;font-size:13px;overflow-wrap:anywhere}
    .timeline col.c-t{width:66px}.timeline col.c-bar{width:110px}.timeline col.c-line{width:52px}.timeline col.c-took{width:64px}.timeline col.c-shot{width:\(thumbnailWidth + 16)px}
    .timeline pre{white-space:pre-wrap;word-break:break-all}.failure pre{white-space:pre-wrap;word-break:break-all}.timeline .t{font-variant-numeric:tabular-nums;color:var(--dim);white-space:nowrap}
    .timeline .line{color:var(--dim);font-variant-numeric:tabular-nums;text-align:right}.timeline .kind{font-size:11px;text-transform:uppercase;letter-spacing:.04em}
    .timeline td.bar,.timeline th.bar{position:relative;font-size:11px;text-transform:none}
    .timeline td.bar span{position:absolute;top:8px;height:8px;min-width:2px;border-radius:2px;background:#8c959f}
    .timeline td.bar span.dot{width:8px;height:8px;border-radius:50%;margin-left:-4px}
    .timeline tr.step{cursor:pointer}.timeline tr.step:hover{background:var(--soft)}.timeline tr.step.passed td.bar span{background:#4ac26b}
    .timeline tr.failing{background:#ffebe9}.timeline tr.failing td.bar span{background:var(--bad)}.timeline tr.failing .what code{font-weight:700}
    .timeline .mark{color:var(--bad);font-weight:700;font-size:12px}.timeline tr.failure-row td{border-bottom:2px solid #ffcecb;background:#fff5f4}
    .timeline tr.notrun td{color:#8c959f}.timeline tr.notrun code{color:#8c959f}
    .timeline tr.request td.bar span{background:var(--accent)}.timeline tr.request .kind{color:var(--accent)}
    .timeline tr.message td.bar span{background:#8250df}.timeline tr.message .kind{color:#8250df}
    .timeline tr.current{outline:2px solid var(--accent);outline-offset:-2px}
    .value{color:#444}.http{font-weight:700;font-family:ui-monospace,monospace}.http.s2{color:var(--ok)}.http.s3{color:var(--accent)}.http.s4,.http.s5,.http.sx{color:var(--bad)}
    .thumb{display:block;width:\(thumbnailWidth)px;padding:0;border:1px solid var(--line);border-radius:3px;background:#000;cursor:zoom-in;line-height:0}
    .thumb img,.screen img,.zoom-screen img{width:100%;height:auto;display:block}
    .player{position:sticky;top:150px;border:1px solid var(--line);border-radius:8px;padding:8px;background:var(--soft)}
    .player-head{font-weight:600;margin-bottom:6px}.player .screen{background:#000;border-radius:4px;overflow:hidden;min-height:60px;cursor:zoom-in}
    .controls{display:flex;gap:8px;align-items:center;margin-top:6px}.controls input{flex:1}.controls .clock,.controls .count{font-variant-numeric:tabular-nums;color:var(--dim);font-size:12px}
    .play{font:inherit;width:34px;border:1px solid var(--line);border-radius:6px;background:#fff;cursor:pointer}
    details.fold>summary{cursor:pointer}details.fold>summary h3{display:inline-block;margin:10px 0}
    .artifacts{color:var(--dim)}details.message summary{cursor:pointer;color:var(--dim)}
    section.attempt{padding-bottom:8px}section.attempt+section.attempt{border-top:1px dashed var(--line)}
    #zoom{position:fixed;inset:0;background:rgba(0,0,0,.75);z-index:10;display:flex;flex-direction:column;align-items:center;justify-content:center;cursor:zoom-out}
    #zoom .zoom-screen{width:min(95vw,1200px)}#zoom p{color:#ddd}
    @media (max-width:1000px){.trace{grid-template-columns:1fr}.player{position:static}.slowest ol{columns:1}}
    """
}
