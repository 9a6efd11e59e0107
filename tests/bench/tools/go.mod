module owners.test/bench/tools

go 1.22
