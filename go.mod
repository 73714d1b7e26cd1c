module c6book

go 1.26.8
