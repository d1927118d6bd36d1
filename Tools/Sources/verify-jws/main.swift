import VerifyJWSCommand

VerifyJWSTool.main()
