/// The console's only script, served at `/console/static/console.js` (the Content-Security-Policy
/// allows scripts from this server's own files only). Progressive enhancement: every page works
/// without it. It rewrites each `<time datetime>` in the viewer's time zone (the UTC value stays in
/// the element's title) and says so in the footer.
enum ConsoleScript {
    static let text = #"""
    "use strict";
    (function () {
      var format;
      try {
        format = new Intl.DateTimeFormat(undefined, {
          year: "numeric", month: "short", day: "numeric",
          hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short"
        });
      } catch (error) {
        return;
      }
      function localize() {
        var times = document.querySelectorAll("time[datetime]");
        for (var index = 0; index < times.length; index++) {
          var element = times[index];
          var date = new Date(element.getAttribute("datetime"));
          if (isNaN(date.getTime())) { continue; }
          element.textContent = format.format(date);
          element.setAttribute("data-local", "true");
        }
        var note = document.getElementById("time-note");
        if (note) {
          var zone = format.resolvedOptions().timeZone || "your time zone";
          note.textContent = "Dates are in your time zone (" + zone + "); hover over one for UTC.";
        }
      }
      if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", localize);
      } else {
        localize();
      }
    })();

    """#
}
