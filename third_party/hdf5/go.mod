module github.com/scigolib/hdf5

go 1.25
