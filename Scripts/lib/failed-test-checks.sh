# Sourced by Scripts/attachments-check.sh and Scripts/own-package-check.sh: the problems a
# check collects, and what a failed Swift Testing test must have attached.

problems=()
problem() { problems+=("$1"); }

# The screen (text, SVG, PNG) and the recording a failed test attached, under
# `swift test --attachments-path FOLDER`: check_attached FOLDER SUITE TEST
check_attached() {
    local file
    for file in screen.txt screen.svg screen.png recording.cast; do
        [[ -s "$1/$2.$3.$file" ]] || problem "--attachments-path holds no $2.$3.$file"
    done
}
