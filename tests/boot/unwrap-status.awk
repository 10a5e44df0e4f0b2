# drvfilterctl status's text as if it were not wrapped at the console's 80
# columns: a line that goes on (4 or more blanks, then text, after a line of
# text) is joined to the one before it, as one blank. Carriage returns of a
# serial console are dropped.
{ sub(/\r$/, "") }
/^    +[^ ]/ && prev != "" { sub(/^ +/, ""); prev = prev " " $0; next }
{ if (started) print prev; prev = $0; started = 1 }
END { if (started) print prev }
