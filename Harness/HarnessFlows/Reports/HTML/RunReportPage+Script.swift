import HarnessCore
import HarnessSteps
import TerminalEmulator
extension RunReportPage {
    /// The page's script: filters and search, the pictures shown in a section when it opens
    /// (each frame an `<img>` of a `data:` URI, never markup), the replay player, and the
    /// enlarged screen. When it is done it sets `data-ready` and `data-load-ms` (milliseconds
    /// since navigation) on `<body>`. The page's policy allows it by its SHA-256, so it must be
    /// written into the page exactly as it is here.
    static let script = #"""
    (function(){
    "use strict";
    var frames=JSON.parse(document.getElementById("frames").textContent);
    function draw(el,i){el.textContent="";if(!frames[i])return;var img=document.createElement("img");img.alt="screen";img.src="data:image/svg+xml;charset=utf-8,"+encodeURIComponent(frames[i]);el.appendChild(img);}
    var zoom=document.getElementById("zoom"),zoomScreen=zoom.querySelector(".zoom-screen");
    function enlarge(i){draw(zoomScreen,i);zoom.hidden=false;}
    zoom.addEventListener("click",function(){zoom.hidden=true;});
    document.addEventListener("keydown",function(e){if(e.key==="Escape")zoom.hidden=true;});
    function initPlayer(p){
      if(p.dataset.ready)return;p.dataset.ready="1";
      var times=p.dataset.times.split(",").map(Number),idx=p.dataset.frames.split(",").map(Number);
      var screen=p.querySelector(".screen"),range=p.querySelector("input"),clock=p.querySelector(".clock"),count=p.querySelector(".count"),btn=p.querySelector(".play");
      var rows=Array.prototype.slice.call(p.closest(".trace").querySelectorAll("tr.step[data-t]"));
      var cur=-1,timer=null;
      function show(i){
        i=Math.max(0,Math.min(idx.length-1,i));
        if(i!==cur){draw(screen,idx[i]);cur=i;}
        range.value=i;clock.textContent="+"+times[i].toFixed(2)+"s";count.textContent=(i+1)+"/"+idx.length;p.dataset.frame=String(i);
        var current=null;rows.forEach(function(r){if(+r.dataset.t<=times[i]+0.0005)current=r;});
        rows.forEach(function(r){r.classList.toggle("current",r===current);});
      }
      function stop(){clearTimeout(timer);timer=null;btn.textContent="\u25B6";}
      function tick(){
        if(cur>=idx.length-1){stop();return;}
        var wait=Math.min(Math.max((times[cur+1]-times[cur])*1000,33),1200);
        timer=setTimeout(function(){show(cur+1);tick();},wait);
      }
      btn.addEventListener("click",function(){if(timer){stop();return;}if(cur>=idx.length-1)show(0);btn.textContent="\u275A\u275A";tick();});
      range.addEventListener("input",function(){stop();show(+range.value);});
      screen.addEventListener("click",function(){enlarge(idx[cur]);});
      p.seek=function(t){var i=0;while(i+1<times.length&&times[i+1]<=t+0.0005)i++;stop();show(i);};
      p.dataset.frameCount=String(idx.length);
      show(p.dataset.start==="end"?idx.length-1:0);
    }
    function visible(el){var d=el.closest("details:not([open])");return !d;}
    function fill(root){
      root.querySelectorAll("button.thumb[data-frame]").forEach(function(b){if(!b.firstChild&&visible(b))draw(b,+b.dataset.frame);});
      root.querySelectorAll(".player").forEach(function(p){if(visible(p))initPlayer(p);});
    }
    document.addEventListener("click",function(e){
      var thumb=e.target.closest("button.thumb");
      if(thumb){e.stopPropagation();enlarge(+thumb.dataset.frame);return;}
      var row=e.target.closest("tr[data-t]");
      if(row){var p=row.closest(".trace").querySelector(".player");if(p&&p.seek)p.seek(+row.dataset.t);}
    });
    document.querySelectorAll("details.flow,details.fold").forEach(function(d){
      if(d.open)fill(d);
      d.addEventListener("toggle",function(){if(d.open)fill(d);});
    });
    function openHash(){var id=location.hash.slice(1);var d=id&&document.getElementById(id);if(d&&d.tagName==="DETAILS"){d.open=true;fill(d);}}
    window.addEventListener("hashchange",openHash);openHash();
    var filter="all",query="",shown=document.getElementById("shown");
    var items=document.querySelectorAll("[data-status][data-name]");
    function apply(){
      var n=0;
      items.forEach(function(el){
        var ok=(filter==="all"||el.dataset.status===filter)&&(!query||el.dataset.name.toLowerCase().indexOf(query)>=0);
        el.hidden=!ok;if(ok&&el.tagName==="TR")n++;
      });
      shown.textContent=(filter==="all"&&!query)?"":n+" shown";
    }
    document.querySelectorAll("button.filter").forEach(function(b){
      b.addEventListener("click",function(){
        filter=b.dataset.filter;
        document.querySelectorAll("button.filter").forEach(function(o){o.classList.toggle("on",o===b);});
        apply();
      });
    });
    document.getElementById("search").addEventListener("input",function(e){query=e.target.value.trim().toLowerCase();apply();});
    document.body.dataset.loadMs=String(Math.round(performance.now()));
    document.body.dataset.ready="1";
    })();
    """#
}
