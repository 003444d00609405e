<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Pages: static pages and the contact form.
 */
class Pages extends CI_Controller
{
    public function show($page = 'about')
    {
        $this->load->view('pages/' . $page);
    }

    public function contact()
    {
        $this->load->helper('form');
        $this->load->view('pages/contact');
    }

    public function send()
    {
        $this->load->library('email');
        $this->email->from($this->input->post('email'));
        $this->email->to('secretary@harbourside.example');
        $this->email->message($this->input->post('message'));
        $this->email->send();
        $this->load->helper('url');
        redirect('contact');
    }
}
