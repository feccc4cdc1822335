import Foundation
import TestSupport
import Harness
import HarnessFlows

/// Loads pages (SVG files or HTML reports) in frames of a probe page whose script lays out
/// every screen picture of each, inline `<svg>` or `<img>` of an SVG data URL, and reports where
/// the browser starts each glyph. One browser run serves all the pages.
enum GlyphProbe {
    /// The pictures of the page at `path`, as headless Chromium draws them.
    static func pictures(onPageAt path: String) async throws -> [DrawnPicture] {
        try await pictures(onPagesAt: [path])[0]
    }

    /// The pictures of each page, in the order of `paths`.
    static func pictures(onPagesAt paths: [String]) async throws -> [[DrawnPicture]] {
        let folder = try TemporaryDirectory(prefix: "harness-glyph-probe")
        defer { folder.remove() }
        let probe = try folder.write(page(framing: paths.map { URL(fileURLWithPath: $0).absoluteString }), at: "probe.html")
        // The probe reads the framed pages' documents: all are files, which Chromium keeps apart unless told.
        let dom = try await HeadlessChromium.dumpDOM(of: probe, arguments: ["--allow-file-access-from-files"])
        if let error = dom.firstMatch(of: /<pre id="pictures" data-error="([^"]*)"/) {
            throw ProbeFailure(description: "the probe's script failed: \(error.1)")
        }
        guard let encoded = dom.firstMatch(of: /<pre id="pictures">([A-Za-z0-9+\/=]+)<\/pre>/),
              let data = Data(base64Encoded: String(encoded.1)) else {
            throw ProbeFailure(description: "the probe measured nothing (a page did not load?); its page:\n\(dom.prefix(3000))")
        }
        let pictures = try JSONDecoder().decode([[DrawnPicture]].self, from: data)
        guard pictures.count == paths.count else { throw ProbeFailure(description: "\(pictures.count) of \(paths.count) pages measured") }
        return pictures
    }

    struct ProbeFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The probe page: each of `urls` in a frame; when all have loaded, their pictures as base64
    /// JSON in `<pre id="pictures">` (or the error in its `data-error`).
    static func page(framing urls: [String]) -> String {
        let frames = urls.map { url in
            let attribute = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            return "<iframe width=\"1600\" height=\"1200\" onload=\"probePage(this)\" src=\"\(attribute)\"></iframe>"
        }
        return """
            <!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
            <pre id="pictures"></pre>
            <div id="scratch" style="position:absolute;left:-100000px;top:0"></div>
            <script>
            var expected=\(urls.count);
            \(script)
            </script>
            \(frames.joined(separator: "\n"))
            </body></html>
            """
    }

    private static let script = """
        "use strict";
        var CW=\(ScreenSVG.cellWidth),CH=\(ScreenSVG.cellHeight);
        function place(el){
          if(el.closest(".thumb"))return "thumb";
          if(el.closest(".player"))return "player";
          if(el.closest(".zoom"))return "zoom";
          var side=el.closest(".side");
          if(side&&side.classList.contains("expected"))return "expected";
          if(side&&side.classList.contains("actual"))return "actual";
          return "other";
        }
        function besideText(el){var side=el.closest(".side"),pre=side&&side.querySelector(".snapshot-text");return pre?pre.textContent:null;}
        function measure(svg,where,text){
          var box=(svg.getAttribute("viewBox")||"0 0 0 0").trim().split(/\\s+/).map(Number),texts=[];
          svg.querySelectorAll("text").forEach(function(t){
            var n=t.getNumberOfChars(),starts=[];
            for(var i=0;i<n;i++){try{var p=t.getStartPositionOfChar(i);starts.push([p.x,p.y]);}catch(e){starts.push(null);}}
            texts.push({content:t.textContent,laidOut:n,starts:starts});
          });
          return {place:where,cols:Math.round(box[2]/CW),rows:Math.round(box[3]/CH),text:text,texts:texts};
        }
        function decode(src){
          var comma=src.indexOf(","),head=src.slice(0,comma),body=src.slice(comma+1);
          if(!/;base64$/.test(head))return decodeURIComponent(body);
          var bin=atob(body),bytes=new Uint8Array(bin.length);
          for(var i=0;i<bin.length;i++)bytes[i]=bin.charCodeAt(i);
          return new TextDecoder().decode(bytes);
        }
        var measured=new Map();
        function probePage(frame){
          var out=document.getElementById("pictures");
          try{
            var doc=frame.contentDocument,pictures=[];
            if(doc.documentElement.localName==="svg"){pictures.push(measure(doc.documentElement,"document",null));}
            else{
              doc.querySelectorAll("svg").forEach(function(svg){pictures.push(measure(svg,place(svg),besideText(svg)));});
              doc.querySelectorAll('img[src^="data:image/svg+xml"]').forEach(function(img){
                var parsed=new DOMParser().parseFromString(decode(img.getAttribute("src")),"image/svg+xml");
                var svg=document.importNode(parsed.documentElement,true);
                document.getElementById("scratch").appendChild(svg);
                pictures.push(measure(svg,place(img),besideText(img)));
              });
            }
            measured.set(frame,pictures);
            if(measured.size<expected)return;
            var all=Array.prototype.map.call(document.querySelectorAll("iframe"),function(f){return measured.get(f);});
            var bytes=new TextEncoder().encode(JSON.stringify(all)),bin="";
            for(var i=0;i<bytes.length;i++)bin+=String.fromCharCode(bytes[i]);
            out.textContent=btoa(bin);
          }catch(e){out.dataset.error=String(e);}
        }
        """
}
