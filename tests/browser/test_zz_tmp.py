def test_imp():
    import sys
    import tests.conftest as c
    print(c.__file__, sys.path[:4])
