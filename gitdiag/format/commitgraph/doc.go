// Package commitgraph reads git's commit-graph (objects/info/commit-graph,
// or the chain in objects/info/commit-graphs/): each commit's parents,
// committer date and generation number, without inflating the commit.
// git orders its merge-base walk by these generation numbers when the file
// has them, so a walk that is to read what git reads, in git's order, needs
// them too. The format is gitformat-commit-graph(5); what is read of it, and
// when, follows git 2.39's commit-graph.c (load_commit_graph_chain,
// fill_commit_graph_info, validate_mixed_generation_chain).
//
// The file comes from the repository and is not trusted: every offset,
// count and parent position is checked against the file's length before it
// is used, and a file that fails a check is not used at all (git would
// refuse it too).
package commitgraph
