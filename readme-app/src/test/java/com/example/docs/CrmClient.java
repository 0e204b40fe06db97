package com.example.docs;

import java.net.http.HttpResponse;

interface CrmClient {

	HttpResponse<String> push(Contact contact);

	void confirm(Contact contact);

}
