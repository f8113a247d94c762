// vector_search restricted to one tier (the hot tier is searched first): nearest events from the
// shared vector index, then filtered; the caller over-fetches and falls back to
// vector_search_tier_exact when too few survive.
// Params: $vector (LIST<FLOAT>), $fetch (INTEGER), $k (INTEGER), $namespace (STRING), $tier (STRING),
//         $statuses (LIST<STRING> or null), $time_from, $time_to (DATE or null).
// Returns: one row: fetched (INTEGER, rows the index gave), hits (LIST<MAP{id, score}>, best first;
//          score is Neo4j's normalised cosine (1 + cos) / 2).
CALL db.index.vector.queryNodes('event_embedding', $fetch, $vector) YIELD node, score
WITH collect({node: node, score: score}) AS candidates
RETURN size(candidates) AS fetched,
       [c IN candidates
        WHERE c.node.namespace = $namespace AND c.node.tier = $tier
          AND ($statuses IS NULL OR c.node.status IN $statuses)
          AND (($time_from IS NULL AND $time_to IS NULL)
               OR any(d IN c.node.days WHERE ($time_from IS NULL OR d >= $time_from)
                                         AND ($time_to IS NULL OR d <= $time_to)))
        | {id: c.node.id, score: c.score}][..$k] AS hits
