module example.com/kubetape-go

go 1.19
