// Browser: what happened on, and what is due by, one day.
// Params: $namespace, $date (ISO, e.g. '2026-03-10').
// Returns: link (ON or DUE), time, status, text.
MATCH (d:Day {uid: $namespace + '|' + $date})<-[r:ON|DUE]-(e:Event)
RETURN type(r) AS link, e.time AS time, e.status AS status, e.text AS text
ORDER BY link, time
