// Schema: a namespace's topics (list_topics, orphan clean-up).
// Params: none. Returns: nothing.
CREATE RANGE INDEX topic_namespace IF NOT EXISTS FOR (n:Topic) ON (n.namespace)
