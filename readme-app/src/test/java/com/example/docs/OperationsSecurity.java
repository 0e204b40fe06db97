package com.example.docs;

import jakarta.servlet.DispatcherType;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

@Configuration(proxyBeanMethods = false)
class OperationsSecurity {

	@Bean
	SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.dispatcherTypeMatchers(DispatcherType.ERROR)
			.permitAll()
			.requestMatchers(HttpMethod.GET, "/actuator/echomq/**", "/echomq/**")
			.hasAnyRole("ECHOMQ_VIEWER", "ECHOMQ_ADMIN")
			.requestMatchers("/actuator/echomq/**", "/echomq/**")
			.hasRole("ECHOMQ_ADMIN")
			.anyRequest()
			.authenticated())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.ignoringRequestMatchers("/actuator/**"));
		return http.build();
	}

}
