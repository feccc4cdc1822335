/// The start of the report pages (the run's page and the folder's index): the document up to
/// and including `<body>`, titled "`title` — `summary`", with the page's style sheet inline.
enum HTMLPageHead {
    static func html(title: String, summary: String, style: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLEscaping.text(title)) — \(XMLEscaping.text(summary))</title>
        <style>\(style)</style>
        </head>
        <body>

        """
    }
}
