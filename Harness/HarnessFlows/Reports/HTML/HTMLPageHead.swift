import HarnessSteps
/// The start of the report pages (the run's page and the folder's index): the document up to
/// and including `<body>`, titled "`title` — `summary`", with the page's style sheet inline and
/// its Content-Security-Policy (``contentSecurityPolicy(script:allowsImagesFromFolder:)``).
enum HTMLPageHead {
    static func html(title: String, summary: String, style: String, script: String? = nil,
                     allowsImagesFromFolder: Bool = false) -> String {
        let policy = contentSecurityPolicy(script: script, allowsImagesFromFolder: allowsImagesFromFolder)
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(XMLEscaping.attribute(policy))">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLEscaping.text(title)) — \(XMLEscaping.text(summary))</title>
        <style>\(style)</style>
        </head>
        <body>

        """
    }

    /// The page's policy: nothing is loaded from anywhere (`default-src 'none'`) but pictures
    /// from `data:` URIs (and, when `allowsImagesFromFolder`, from the page's own folder); the
    /// only script that runs is the page's own inline one, allowed by its SHA-256; styles are
    /// inline (the page's sheet and the `style` attributes of its bars); no plugin, no `<base>`,
    /// no form submission.
    static func contentSecurityPolicy(script: String?, allowsImagesFromFolder: Bool) -> String {
        [
            "default-src 'none'",
            "script-src " + (script.map(SHA256.cspSource(of:)) ?? "'none'"),
            "style-src 'unsafe-inline'",
            "img-src " + (allowsImagesFromFolder ? "'self' data:" : "data:"),
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ].joined(separator: "; ")
    }
}
