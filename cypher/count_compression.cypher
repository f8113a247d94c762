// What the dual compression trigger did (compress/trigger.py) in one namespace (or all, when
// $namespace is null): per trigger, its events, the distinct turns they came from, and the events
// made from several turns (windows). Events written before the trigger existed count as "information".
// Params: $namespace (STRING or null).
// Returns: trigger (STRING), events (INTEGER), turns (INTEGER), windows (INTEGER).
MATCH (e:Event)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.stub IS NULL
WITH coalesce(e.trigger, 'information') AS trigger, e, size(e.source_ids) AS sources
UNWIND e.source_ids AS turn
WITH trigger, e, sources, e.namespace + '|' + turn AS turn_key
RETURN trigger, count(DISTINCT e) AS events, count(DISTINCT turn_key) AS turns,
       count(DISTINCT CASE WHEN sources > 1 THEN e END) AS windows
ORDER BY trigger
