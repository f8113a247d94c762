// Browser (graph view): one event with everything linked to it: its turns, entities, topic, days
// and the events before/after/caused by/superseding it.
// Params: $namespace, $event_id  (set with  :param namespace => 'default'  and  :param event_id => 'ev-...').
// Returns: e, r, n (nodes and relationships to draw).
MATCH (e:Event {uid: $namespace + '|' + $event_id})-[r]-(n)
RETURN e, r, n
