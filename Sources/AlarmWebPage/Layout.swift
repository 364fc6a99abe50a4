/// The document around every page: head, inline style and script, the ringing panel.
enum Layout {
  /// A complete document. `ring` is the ringing panel's HTML (pages behind the login
  /// carry it, hidden when nothing rings, so the script can show it).
  static func document(title: String, lang: String, body: String, ring: String = "") -> String {
    """
    <!DOCTYPE html>
    <html lang="\(lang)"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">
    <meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">
    <title>\(HTML.escape(title))</title><link rel="icon" href="data:,">
    <style>\(style)</style></head>
    <body>\(ring)<main>\(body)</main><script>\(script)</script></body></html>

    """
  }

  // System colours and fonts only; `light dark` follows the phone's setting.
  static let style = """
    :root{--bg:#f2f2f7;--card:#fff;--fg:#000;--dim:#6c6c70;--line:#d1d1d6;--accent:#34c759;\
    --btn:#007aff;--warn:#ff9500;--bad:#ff3b30;color-scheme:light dark}
    @media(prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--fg:#fff;--dim:#98989f;\
    --line:#38383a;--accent:#30d158;--btn:#0a84ff;--warn:#ff9f0a;--bad:#ff453a}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.35 system-ui,-apple-system,\
    "Noto Sans CJK TC","Noto Sans TC",sans-serif;-webkit-text-size-adjust:100%}
    main{max-width:34rem;margin:0 auto;padding:0 1rem 2rem}
    header{display:flex;align-items:center;justify-content:space-between;gap:.5rem;\
    padding:.75rem 0 .25rem}
    h1{font-size:2rem;margin:.25rem 0}
    a{color:var(--btn)}
    form{margin:0}
    button,.btn{font:inherit;min-height:44px;min-width:44px;border-radius:12px;border:0;\
    padding:.5rem 1rem;background:var(--card);color:var(--btn);cursor:pointer;\
    text-decoration:none;display:inline-flex;align-items:center;justify-content:center}
    .plus{font-size:2rem;line-height:1;padding:0 .8rem;background:none}
    .link{background:none;padding:.5rem 0}
    .primary{background:var(--btn);color:#fff;width:100%;font-weight:600}
    .danger{color:var(--bad);width:100%}
    .wide{width:100%}
    .card{background:var(--card);border-radius:14px;padding:.75rem 1rem;margin:.75rem 0}
    .note{color:var(--dim);font-size:.9rem;margin:.25rem 0}
    .box{border-left:4px solid var(--warn)}
    .bad{border-left-color:var(--bad)}
    .box ul{margin:.25rem 0;padding-left:1.1rem;overflow-wrap:anywhere;font-size:.9rem}
    ul.list{list-style:none;margin:.75rem 0;padding:0;background:var(--card);border-radius:14px}
    ul.list li{display:flex;align-items:center;gap:.5rem;padding:.6rem 1rem;\
    border-top:1px solid var(--line)}
    ul.list li:first-child{border-top:0}
    .main{flex:1;min-width:0}
    .main a{color:inherit;text-decoration:none;display:block}
    .time{font-size:2.6rem;font-weight:300;line-height:1.1;font-variant-numeric:tabular-nums}
    .time small{font-size:1.1rem;margin-right:.2rem}
    .sub{color:var(--dim);overflow-wrap:anywhere}
    .off .time,.off .sub{opacity:.45}
    .skip{font-size:.9rem;min-height:36px;padding:.25rem .6rem;margin-top:.25rem;\
    background:var(--bg)}
    .switch{width:64px;height:40px;min-width:64px;padding:0;border-radius:20px;\
    background:var(--line);position:relative}
    .switch::after{content:"";position:absolute;top:4px;left:4px;width:32px;height:32px;\
    border-radius:50%;background:#fff;box-shadow:0 1px 3px #0006;transition:left .15s}
    .switch[aria-checked=true]{background:var(--accent)}
    .switch[aria-checked=true]::after{left:28px}
    #ring{position:sticky;top:0;z-index:9;background:var(--bad);color:#fff;padding:1rem;\
    text-align:center}
    #ring[hidden]{display:none}
    #ring.snoozed{background:var(--warn)}
    #ring p{margin:.2rem 0;font-size:1.3rem;font-weight:600;overflow-wrap:anywhere}
    .big{display:flex;gap:.75rem;margin-top:.75rem}
    .big form{flex:1}
    .big button{width:100%;min-height:72px;font-size:1.5rem;font-weight:700;color:#000;\
    background:#fff}
    #ring.snoozed .snz{display:none}
    label.row{display:flex;align-items:center;justify-content:space-between;gap:1rem;\
    min-height:48px;border-top:1px solid var(--line)}
    label.row:first-child{border-top:0}
    input,select{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);\
    border-radius:10px;min-height:44px;padding:.3rem .6rem;max-width:60%}
    input[type=checkbox]{appearance:none;-webkit-appearance:none;flex:none;width:60px;\
    height:36px;min-height:0;border:0;border-radius:18px;cursor:pointer;\
    background:radial-gradient(circle 15px at 18px 50%,#fff 93%,#0000) var(--line)}
    input[type=checkbox]:checked{background:radial-gradient(circle 15px at 42px 50%,#fff 93%,#0000)\
    var(--accent)}
    input[type=checkbox]:focus-visible{outline:2px solid var(--btn)}
    input[type=range]{flex:1;max-width:none;accent-color:var(--btn);border:0;background:none}
    .clock{display:block;width:100%;max-width:none;font-size:2.6rem;text-align:center;\
    font-variant-numeric:tabular-nums}
    fieldset{border:0;margin:0;padding:0}
    legend{float:left;width:100%;padding:0;margin-bottom:.5rem}
    legend+*{clear:both}
    .days{display:grid;grid-template-columns:repeat(7,1fr);gap:.3rem}
    .days label{position:relative}
    .days input{position:absolute;opacity:0;width:1px;height:1px}
    .days span{display:flex;align-items:center;justify-content:center;min-height:44px;\
    border-radius:22px;background:var(--bg);font-size:.95rem}
    .days input:checked+span{background:var(--btn);color:#fff}
    .days input:focus-visible+span{outline:2px solid var(--btn)}
    .stack>*+*{margin-top:.75rem}
    label.list{display:block;padding:.6rem 0;border-top:1px solid var(--line)}
    .card>label.list:first-child{border-top:0}
    .tabs{display:flex;background:var(--line);border-radius:10px;padding:2px;margin:.25rem 0}
    .tabs a{flex:1;text-align:center;padding:.45rem;border-radius:8px;color:var(--fg);\
    text-decoration:none;font-weight:500}
    .tabs a[aria-current]{background:var(--card);box-shadow:0 1px 3px #0003}
    .reminders .title{font-size:1.15rem;overflow-wrap:anywhere}
    .done .title{text-decoration:line-through;color:var(--dim)}
    .tick{width:36px;height:36px;min-width:36px;min-height:36px;padding:0;border-radius:50%;\
    border:2px solid var(--line);background:none;flex:none}
    .tick[aria-checked=true]{background:var(--accent);border-color:var(--accent)}
    .tick[aria-checked=true]::after{content:"✓";color:#fff;font-weight:700}
    .order{display:flex;flex-direction:column}
    .photo{display:block;max-width:100%;max-height:12rem;border-radius:10px;margin-top:.4rem}
    .photo.big{max-height:20rem;margin:0 auto .6rem}
    input[type=file]{flex:1;min-width:0;font:inherit}
    .move{min-height:30px;min-width:40px;padding:0;font-size:.8rem;background:none}
    .move:disabled{opacity:.25;cursor:default}
    input.full{display:block;width:100%;max-width:none;margin:.4rem 0 .2rem}
    textarea{display:block;box-sizing:border-box;width:100%;margin:.4rem 0 .2rem;font:inherit;\
    color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:10px;\
    padding:.4rem .6rem;resize:vertical}
    """

  // Optional improvements: log in with the token after `#` in the login link (the
  // fragment never reaches the server; it is taken out of the address and the history
  // before the form posts it), confirm deletes, show the volume, and poll the service's
  // status every 3 s to show or hide the ringing panel.
  static let script = """
    (function(){var d=document,r=d.getElementById("ring");\
    d.querySelectorAll("form[data-confirm]").forEach(function(f){f.addEventListener("submit",\
    function(e){if(!confirm(f.dataset.confirm))e.preventDefault()})});\
    var h=location.hash,t=d.querySelector("input[name=token]");\
    if(t&&h.length>1){history.replaceState(null,"",location.pathname);\
    t.value=decodeURIComponent(h.slice(1));t.form.submit()}\
    var v=d.querySelector("input[type=range]"),o=d.getElementById("vol");\
    if(v&&o)v.addEventListener("input",function(){o.textContent=v.value});\
    if(!r)return;function show(s){if(!s){r.hidden=true;return}\
    var z=s.state==="snoozed";r.className=z?"snoozed":"";\
    d.getElementById("ring-what").textContent=s.label||s.id;\
    d.getElementById("ring-when").textContent=(z?r.dataset.snoozed:r.dataset.until)+" "+\
    String(s.until).substr(11,5);r.hidden=false}\
    function poll(){fetch("/api/status",{credentials:"same-origin",\
    headers:{Accept:"application/json"}}).then(function(x){return x.ok?x.json():null})\
    .then(function(j){if(j)show(j.session)}).catch(function(){})\
    .then(function(){setTimeout(poll,3000)})}setTimeout(poll,3000)})();
    """
}
