package rest

func (a *API) repoRoutes() {}
