"""The logical solver: a board of candidates and the steps a person takes on it
(singles to nested chains, a variant's rules as small SAT questions), the path
they make, its rating, and the compiled reasoning engine they run on."""
